import Foundation

/// What a request sends as its body.
public enum RequestBody {
    /// No body.
    case empty
    /// A value encoded as JSON with the layer's encoder (`application/json`). `Data` goes as its bytes, as
    /// `application/octet-stream` unless the request's `Content-Type` says otherwise, never base64.
    case json(any Encodable)
    /// Raw bytes sent with the given `Content-Type`.
    case data(Data, contentType: String)
    /// Fields sent as `application/x-www-form-urlencoded`, percent-encoded, in key order.
    case form([String: String])
}

extension RequestBody {
    /// The bytes and content type this body puts on the wire, or `nil` for ``empty``.
    func encoded(with encoder: JSONEncoder) throws(NetworkError) -> (data: Data, contentType: String)? {
        switch self {
        case .empty:
            return nil
        case .json(let value as Data):
            return (value, "application/octet-stream")
        case .json(let value):
            do {
                return (try encoder.encode(value), "application/json")
            } catch {
                throw .encodingFailed(error)
            }
        case .data(let data, let contentType):
            return (data, contentType)
        case .form(let fields):
            let text = PercentEncoding.query(fields)
            return (Data(text.utf8), "application/x-www-form-urlencoded; charset=utf-8")
        }
    }
}
