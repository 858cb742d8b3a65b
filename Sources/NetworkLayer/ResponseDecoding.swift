import Foundation

/// How a validated reply becomes the value the success handler receives.
struct ResponseDecoding<Value> {
    let decode: (Reply) throws(NetworkError) -> Value

    /// Replies up to this size decode where they land: a queue hop (~45–80 µs measured on Linux) costs
    /// more than decoding them. Larger ones decode on a concurrent queue, so big replies decode in
    /// parallel instead of one after another on the session's serial delegate queue.
    static var inlineLimit: Int { 16 * 1024 }
}

extension ResponseDecoding where Value: Decodable {
    /// Decodes JSON into `Value`; an empty reply is ``NetworkError/emptyResponse``. ``EmptyResponse``
    /// succeeds for any 2xx reply, whatever its body ("OK", JSON, nothing).
    static func json(_ type: Value.Type, decoder: JSONDecoder) -> Self {
        Self { reply throws(NetworkError) in
            if let empty = EmptyResponse() as? Value { return empty }
            if reply.hasNoContent { throw .emptyResponse }
            do {
                return try decoder.decode(Value.self, from: reply.body)
            } catch {
                throw .decodingFailed(error, body: reply.body)
            }
        }
    }
}

extension ResponseDecoding where Value == Void {
    /// Succeeds for any 2xx reply, with or without a body.
    static var ignoringBody: Self { Self { _ in () } }
}
