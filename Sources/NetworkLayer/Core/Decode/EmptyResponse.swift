/// A reply type for requests whose success carries no body (`204 No Content`, an empty body), for a
/// typed `(T) -> Void` handler: any 2xx reply succeeds, whatever its body (nothing, JSON, `OK`).
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates an empty response.
    public init() {}

    /// Creates an empty response, ignoring whatever the decoder holds.
    ///
    /// - Parameter decoder: The decoder of the reply's body, which is not read.
    public init(from decoder: any Decoder) throws {}
}
