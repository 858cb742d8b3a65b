import Foundation

/// A value as `JSONEncoder` wrote it, read back: how the form encoder sees any `Encodable`, with the
/// encoder's date and key strategies applied.
enum FormValue: Decodable {
    case string(String)
    /// A whole number, exact up to 38 digits (`UInt64.max`, where `Int64` fails and `Double` rounds).
    case decimal(Decimal)
    /// Any other number, as `Double`: older Apple `JSONDecoder`s read `Decimal` through `Double` and would
    /// write `0.1` as `0.1000000000000000512`.
    case number(Double)
    case bool(Bool)
    case null
    case array([FormValue])
    case object([String: FormValue])

    private static func isWhole(_ value: Decimal) -> Bool {
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool first: JSONDecoder never reads `true` as a number, nor `1` as a Bool.
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let decimal = try? container.decode(Decimal.self), decimal.isFinite, Self.isWhole(decimal) {
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
