/// A reply type for requests whose success carries no body.
///
/// Ask for `EmptyResponse` where an API answers with `204 No Content` or an empty body but the
/// caller still wants the typed `(T) -> Void` handler. It decodes from nothing, and from any JSON.
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates an empty response.
    public init() {}

    /// Creates an empty response, ignoring whatever the decoder holds.
    public init(from decoder: any Decoder) throws {}
}
