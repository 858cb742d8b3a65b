import Foundation

/// How a validated reply becomes the value the success handler receives.
struct ResponseDecoding<Value> {
    /// Whether decoding runs the caller's code (a `Decodable`, a strategy): that never runs on the delegate
    /// queue. The rest costs less than a queue hop.
    let runsCallerCode: Bool
    let decode: (Reply) throws(NetworkError) -> Value
}

extension ResponseDecoding where Value: Decodable & SendableMetatype {
    /// The bytes for `Data`, any 2xx for ``EmptyResponse``, JSON for everything else (an empty reply is
    /// ``NetworkError/emptyResponse``).
    static func decoding(_ decoder: JSONDecoder) -> Self {
        let (isData, isEmptyResponse) = (Value.self == Data.self, Value.self == EmptyResponse.self)
        return Self(runsCallerCode: !isData && !isEmptyResponse) { reply throws(NetworkError) in
            // Compared first: a dynamic cast for every reply would cost more than the comparison. `Value` is
            // `Data` or `EmptyResponse` there, so the cast succeeds; were it ever to fail, the reply would
            // take the JSON path, not trap.
            if isData, let body = reply.body as? Value { return body }
            if isEmptyResponse, let empty = EmptyResponse() as? Value { return empty }
            if reply.hasNoContent { throw .emptyResponse }
            do {
                return try decoder.decode(Value.self, from: reply.body)
            } catch {
                throw .decodingFailed(error, body: reply.body)
            }
        }
    }
}
