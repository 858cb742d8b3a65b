/// A reply type for requests whose success carries no body.
///
/// Ask for `EmptyResponse` where an API answers with `204 No Content` or an empty body but the
/// caller still wants the typed `(T) -> Void` handler. Any 2xx reply succeeds as `EmptyResponse`,
/// whatever its body: nothing, JSON, or text such as `OK`.
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates an empty response.
    public init() {}

    /// Creates an empty response, ignoring whatever the decoder holds.
    ///
    /// - Parameter decoder: The decoder of the reply's body, which is not read.
    public init(from decoder: any Decoder) throws {}
}
