/// A value the contract's JSON writes as `null` when absent, where a synthesized `Encodable` would leave
/// the key out: the page reads every key of a record, present or not.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    // Written out: the memberwise initializers of the records that use the wrapper need it declared.
    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
