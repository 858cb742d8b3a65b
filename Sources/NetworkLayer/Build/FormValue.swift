import Foundation

/// A value as JSON has it, read back from what `JSONEncoder` wrote: the form encoder's way to see any
/// `Encodable` through its own `encode(to:)`, with the encoder's date and key strategies applied.
enum FormValue: Decodable {
    case string(String)
    /// A number as its JSON text wrote it: exact for every integer and decimal fraction of up to 38
    /// digits (`UInt64.max`, a `Decimal` amount), where `Int64` or `Double` would round it.
    case decimal(Decimal)
    /// A number too large for ``decimal(_:)``.
    case number(Double)
    case bool(Bool)
    case null
    case array([FormValue])
    case object([String: FormValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool first: JSONDecoder never reads `true` as a number, nor `1` as a Bool.
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let decimal = try? container.decode(Decimal.self), decimal.isFinite {
            self = .decimal(decimal)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([FormValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: FormValue].self))
        }
    }
}
