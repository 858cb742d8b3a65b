import Foundation

/// How a validated reply becomes the value the success handler receives.
struct ResponseDecoding<Value> {
    /// Whether decoding runs code of the caller's (a `Decodable`, a decoder's strategies): such decoding
    /// never runs on the session's delegate queue. The rest costs less than a queue hop.
    let runsCallerCode: Bool
    let decode: (Reply) throws(NetworkError) -> Value
}

extension ResponseDecoding where Value: Decodable {
    /// Decodes JSON into `Value`; an empty reply is ``NetworkError/emptyResponse``. ``EmptyResponse``
    /// succeeds for any 2xx reply, whatever its body ("OK", JSON, nothing).
    static func json(_ type: Value.Type, decoder: JSONDecoder) -> Self {
        Self(runsCallerCode: Value.self != EmptyResponse.self) { reply throws(NetworkError) in
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
    static var ignoringBody: Self { Self(runsCallerCode: false) { _ in () } }
}
