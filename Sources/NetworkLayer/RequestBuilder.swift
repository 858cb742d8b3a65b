import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the `URLRequest` a description stands for: URL, method, headers, body and timeout.
///
/// Shared with `NetworkTestSupport` so that test doubles record exactly what the real layer would send.
package struct RequestBuilder: Sendable {
    package let resolver: URLResolver
    /// The layer's default headers, sorted once: applied in a fixed order, `accept` and `Accept` in one
    /// dictionary resolve the same way every time.
    private let defaultHeaders: [(key: String, value: String)]
    package let encoder: JSONEncoder
    package let timeout: TimeInterval

    package func urlRequest(for description: RequestDescription) throws(NetworkError) -> URLRequest {
        let url = try resolver.url(
            for: description.urlString, query: description.query, requiringPath: description.requiresPath)
        let body = try description.body.encoded(with: encoder)
        var request = URLRequest(url: url)
        request.httpMethod = description.method.rawValue
        request.timeoutInterval = Self.usable(description.timeout, or: timeout)
        // Later writes win and header names are case-insensitive, so each step overrides the one before:
        // Accept, the layer's default headers, the body's Content-Type, then the request's own headers.
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in defaultHeaders { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            // Set explicitly: without it FoundationNetworking sends application/x-www-form-urlencoded.
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
            // httpBody, not uploadTask(from:): a URLProtocol on Linux sees no body from an upload task.
            request.httpBody = body.data
        }
        for (name, value) in Self.sorted(description.headers) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    init(resolver: URLResolver, defaultHeaders: [String: String], encoder: JSONEncoder, timeout: TimeInterval)
    {
        self.resolver = resolver
        self.defaultHeaders = Self.sorted(defaultHeaders)
        self.encoder = encoder
        self.timeout = timeout
    }

    private static func sorted(_ headers: [String: String]) -> [(key: String, value: String)] {
        headers.count < 2 ? Array(headers) : headers.sorted { $0.key < $1.key }
    }

    /// The longest timeout passed on; FoundationNetworking traps converting a larger one (or infinity) to
    /// milliseconds, so `.infinity` means "effectively no limit": about 115 days.
    static let longestTimeout: TimeInterval = 10_000_000

    /// `timeout` if it is a usable number of seconds; otherwise `fallback` (itself made usable).
    /// Zero, negative and NaN are not usable; infinite or huge values are capped at ``longestTimeout``.
    static func usable(_ timeout: TimeInterval?, or fallback: TimeInterval) -> TimeInterval {
        guard let timeout, !timeout.isNaN, timeout > 0 else {
            return fallback.isNaN || fallback <= 0 ? 60 : min(fallback, longestTimeout)
        }
        return min(timeout, longestTimeout)
    }
}
