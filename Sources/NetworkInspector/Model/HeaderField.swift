/// One header as the page reads it, a `[name, value]` pair in JSON: a value, not a two-element array
/// allocated for each header of each attempt.
struct HeaderField: Encodable, Sendable {
    let name: String
    /// The value as redaction left it.
    let value: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(name)
        try container.encode(value)
    }
}
