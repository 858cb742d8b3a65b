import Foundation

/// One request of an API, described once and called by name.
///
/// A simple endpoint states only its path and method; the rest has defaults:
///
/// ```swift
/// enum PostsAPI: Endpoint {
///     case list, post(id: String)
///     var path: String {
///         switch self {
///         case .list: "posts"
///         case .post(let id): "posts/\(pathSegment: id)"
///         }
///     }
///     var method: HTTPMethod { .get }
/// }
/// ```
///
/// The path must stay below the layer's base URL: an absolute URL, `//host` or `..` is refused as
/// ``NetworkError/invalidURL(_:)``, so an endpoint can't send its headers elsewhere.
public protocol Endpoint {
    /// The path below the base URL, with or without a leading `/`; may carry a query after `?`.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Query parameters, percent-encoded and sorted by name. Defaults to none.
    var query: [String: String] { get }
    /// Headers for this endpoint; they override the environment's. Defaults to none.
    var headers: [String: String] { get }
    /// The body. Defaults to ``RequestBody/empty``.
    var body: RequestBody { get }
    /// Seconds this request may wait for data; `nil`, the default, uses the layer's timeout.
    var timeout: TimeInterval? { get }
    /// The most bytes the reply may have (after gzip inflation); `nil` uses ``NetworkLayer/maximumResponseSize``.
    var maximumResponseSize: Int? { get }
    /// The media types a 2xx reply may have; `nil` accepts any. See ``NetworkRequest/acceptableContentTypes``.
    var acceptableContentTypes: [String]? { get }
    /// When this request is sent again after a failure; `nil` uses ``NetworkLayer/retryPolicy``.
    var retryPolicy: RetryPolicy? { get }
    /// How requests use the layer's ``ResponseCache``; ``CachePolicy/useProtocolCachePolicy`` by default.
    var cachePolicy: CachePolicy { get }
}

extension Endpoint {
    /// No query parameters.
    public var query: [String: String] { [:] }
    /// No headers of its own.
    public var headers: [String: String] { [:] }
    /// No body.
    public var body: RequestBody { .empty }
    /// The layer's timeout.
    public var timeout: TimeInterval? { nil }
    /// The layer's maximum response size.
    public var maximumResponseSize: Int? { nil }
    /// Any media type.
    public var acceptableContentTypes: [String]? { nil }
    /// The layer's retry policy.
    public var retryPolicy: RetryPolicy? { nil }
    /// HTTP caching as RFC 9111 describes it.
    public var cachePolicy: CachePolicy { .useProtocolCachePolicy }
}

extension String.StringInterpolation {
    /// Interpolates `value` as one percent-encoded path segment: `"posts/\(pathSegment: id)"` keeps an
    /// id containing `/`, `?`, `#` or a space inside its segment.
    ///
    /// - Parameter value: The segment's text, unencoded.
    public mutating func appendInterpolation(pathSegment value: String) {
        appendLiteral(PercentEncoding.encode(value))
    }
}
