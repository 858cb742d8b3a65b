import Foundation

/// A successful reply: the value it became, and what the server (or the cache) said around it.
///
/// ```swift
/// network.get(urlString: "items", successHandler: { (response: NetworkResponse<[Item]>) in
///     let total = response.headers["X-Total-Count"].flatMap(Int.init)
///     show(response.value, total: total)
/// }, errorHandler: { error in show(error.message) })
/// ```
public struct NetworkResponse<Value> {
    /// The reply, decoded.
    public var value: Value
    /// The HTTP status code, such as 200 or 201.
    public var statusCode: Int
    /// The reply's headers; look them up by name, in any case.
    public var headers: ResponseHeaders
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The body as it arrived (after gzip inflation), for logging or checking a signature.
    public var data: Data
    /// What the request cost (duration, first byte, bytes, attempts); `nil` from a test double not given any.
    public var metrics: RequestMetrics?
    /// Whether the reply came from the layer's ``ResponseCache``: ``CacheStatus/network`` unless it did.
    public var cacheStatus: CacheStatus = .network

    /// Creates a response; test doubles and adapters use it.
    ///
    /// - Parameters:
    ///   - value: The reply, decoded.
    ///   - statusCode: The HTTP status code.
    ///   - headers: The reply's headers.
    ///   - url: The URL that answered, after any redirects.
    ///   - data: The body as it arrived.
    ///   - metrics: What the request cost, if it was measured.
    ///   - cacheStatus: Whether the reply came from the cache.
    public init(
        value: Value, statusCode: Int = 200, headers: ResponseHeaders = ResponseHeaders(), url: URL? = nil,
        data: Data = Data(), metrics: RequestMetrics? = nil, cacheStatus: CacheStatus = .network
    ) {
        self.metrics = metrics
        self.cacheStatus = cacheStatus
        self.value = value
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.data = data
    }

    /// The same response with its value transformed.
    ///
    /// - Parameter transform: Makes the new value from ``value``; what it throws, `map` throws.
    /// - Returns: A response with the new value and this one's status, headers, URL, body and metrics.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> NetworkResponse<NewValue> {
        NetworkResponse<NewValue>(
            value: try transform(value), statusCode: statusCode, headers: headers, url: url, data: data,
            metrics: metrics, cacheStatus: cacheStatus)
    }
}

extension NetworkResponse: Sendable where Value: Sendable {}
