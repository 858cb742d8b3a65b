/// A value the contract's JSON writes as `null` when absent, where a synthesized `Encodable` would leave
/// the key out: the page reads every key of a record, present or not.
@propertyWrapper
struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
