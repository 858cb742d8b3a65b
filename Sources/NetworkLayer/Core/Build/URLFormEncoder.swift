import Foundation

/// Encodes an `Encodable` value as URL query items or an `application/x-www-form-urlencoded` body, with
/// one set of conventions for both.
///
/// ```swift
/// struct Filter: Encodable { let status: [String]; let since: Date; let unread: Bool; let page: Page }
/// var request = NetworkRequest<[Todo]>(urlString: "todos")
/// try request.addQuery(filter)
/// // status[]=open&status[]=blocked&since=2026-11-24T10:00:00Z&unread=true&page[size]=20&page[number]=2
/// ```
///
/// Keys are sorted (the same value gives the same URL) and nested with brackets (`page[size]=20`);
/// arrays, dates and bools follow ``ArrayEncoding``, ``DateEncoding`` and ``BoolEncoding``; `nil` and
/// empty containers give no item; names and values are percent-encoded per RFC 3986 (`+` is `%2B`).
/// A value without names at its top (a bare number or array) fails with ``NetworkError/encodingFailed(_:)``.
public struct URLFormEncoder: Sendable {
    /// How arrays are written.
    public enum ArrayEncoding: Sendable {
        /// `ids[]=1&ids[]=2` (Rails, PHP, Alamofire's default).
        case brackets
        /// `ids=1&ids=2`: the name repeated.
        case repeatedKey
        /// `ids[0]=1&ids[1]=2`.
        case indexed
    }

    /// How dates are written.
    public enum DateEncoding: Sendable {
        /// `2026-11-24T10:00:00Z`.
        case iso8601
        /// Whole or fractional seconds since 1970: `1795514400`.
        case secondsSince1970
        /// Milliseconds since 1970: `1795514400000`.
        case millisecondsSince1970
    }

    /// How bools are written.
    public enum BoolEncoding: Sendable {
        /// `true` and `false`.
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How arrays are written; ``ArrayEncoding/brackets`` by default.
    public var arrayEncoding: ArrayEncoding
    /// How dates are written; ``DateEncoding/iso8601`` by default.
    public var dateEncoding: DateEncoding
    /// How bools are written; ``BoolEncoding/literal`` by default.
    public var boolEncoding: BoolEncoding
    /// Whether property names become snake_case (`pageSize` → `page_size`), as `JSONEncoder` does.
    public var convertsKeysToSnakeCase: Bool

    /// An encoder with the given conventions.
    ///
    /// - Parameters:
    ///   - arrayEncoding: How arrays are written.
    ///   - dateEncoding: How dates are written.
    ///   - boolEncoding: How bools are written.
    ///   - convertsKeysToSnakeCase: Whether property names become snake_case.
    public init(
        arrayEncoding: ArrayEncoding = .brackets, dateEncoding: DateEncoding = .iso8601,
        boolEncoding: BoolEncoding = .literal, convertsKeysToSnakeCase: Bool = false
    ) {
        self.arrayEncoding = arrayEncoding
        self.dateEncoding = dateEncoding
        self.boolEncoding = boolEncoding
        self.convertsKeysToSnakeCase = convertsKeysToSnakeCase
    }

    /// `value`'s properties as query items, in key order.
    ///
    /// - Parameter value: A struct, class or dictionary: something with names for its values.
    /// - Returns: The items, not yet percent-encoded (the layer does that when it builds the URL).
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when `value` can't be encoded or has no names.
    public func queryItems<T: Encodable>(from value: T) throws(NetworkError) -> [URLQueryItem] {
        let tree: FormValue
        do {
            let json = JSONEncoder()
            json.dateEncodingStrategy =
                switch dateEncoding {
                case .iso8601: .iso8601
                case .secondsSince1970: .secondsSince1970
                case .millisecondsSince1970: .millisecondsSince1970
                }
            if convertsKeysToSnakeCase { json.keyEncodingStrategy = .convertToSnakeCase }
            tree = try JSONDecoder().decode(FormValue.self, from: try json.encode(value))
        } catch {
            throw .encodingFailed(error)
        }
        guard case .object(let fields) = tree else {
            let context = EncodingError.Context(
                codingPath: [], debugDescription: "Only a value with named properties can be form-encoded.")
            // The type, not the value: an error's description must not show what was being sent.
            throw .encodingFailed(EncodingError.invalidValue(String(describing: T.self), context))
        }
        return fields.sorted { $0.key < $1.key }.flatMap { items(of: $0.value, named: $0.key) }
    }

    /// `value` as an `application/x-www-form-urlencoded` body: ``queryItems(from:)`` percent-encoded and
    /// joined by `&`.
    ///
    /// - Parameter value: A struct, class or dictionary.
    /// - Returns: The body's bytes (UTF-8).
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when `value` can't be encoded or has no names.
    public func encode<T: Encodable>(_ value: T) throws(NetworkError) -> Data {
        Data(PercentEncoding.query([:], try queryItems(from: value)).utf8)
    }

    private func items(of value: FormValue, named name: String) -> [URLQueryItem] {
        let text: String
        switch value {
        case .null: return []
        case .string(let string): text = string
        case .decimal(let decimal): text = "\(decimal)"
        case .number(let number): text = Self.text(of: number)
        case .bool(let bool): text = boolEncoding == .literal ? String(bool) : (bool ? "1" : "0")
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in
                let elementName =
                    switch arrayEncoding {
                    case .brackets: "\(name)[]"
                    case .repeatedKey: name
                    case .indexed: "\(name)[\(index)]"
                    }
                return items(of: element, named: elementName)
            }
        case .object(let fields):
            return fields.sorted { $0.key < $1.key }.flatMap {
                items(of: $0.value, named: "\(name)[\($0.key)]")
            }
        }
        return [URLQueryItem(name: name, value: text)]
    }

    /// A whole number without `.0`, others as Swift writes them (`0.1`, not `0.1000000000000000055`).
    private static func text(of number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}

extension NetworkRequest {
    /// Appends `value`'s properties to ``queryItems``, by `encoder`'s conventions (see ``URLFormEncoder``).
    ///
    /// - Parameters:
    ///   - value: A struct, class or dictionary whose properties become query items.
    ///   - encoder: The conventions for arrays, dates, bools and nested keys.
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when `value` can't be encoded.
    public mutating func addQuery<T: Encodable>(
        _ value: T, encoder: URLFormEncoder = URLFormEncoder()
    ) throws(NetworkError) {
        queryItems += try encoder.queryItems(from: value)
    }
}

extension RequestBody {
    /// An `application/x-www-form-urlencoded` body from `value`'s properties (see ``URLFormEncoder``).
    ///
    /// - Parameters:
    ///   - value: A struct, class or dictionary whose properties become the form's fields.
    ///   - encoder: The conventions for arrays, dates, bools and nested keys.
    /// - Returns: The body, already encoded.
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when `value` can't be encoded.
    public static func urlEncodedForm<T: Encodable>(
        _ value: T, encoder: URLFormEncoder = URLFormEncoder()
    ) throws(NetworkError) -> RequestBody {
        .data(try encoder.encode(value), contentType: "application/x-www-form-urlencoded; charset=utf-8")
    }
}
