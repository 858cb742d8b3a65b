import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// Every endpoint passed to `request(_:…)`, in order, including those whose request was refused.
    public var recordedEndpoints: [any Endpoint] {
        state.withLock { $0.endpoints }
    }

    /// Answers the requests `endpoint` describes (its method, path and query) with `value`.
    ///
    /// Matching is that of ``stub(_:_:returning:)`` on the endpoint's URL, so an endpoint with a query
    /// matches only requests with the same query items.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - value: The answer: a value of the type the request expects, or `Data` decoded as the real
    ///     layer would.
    public func stub(_ endpoint: any Endpoint, returning value: Any) {
        stub(endpoint, outcomes: [.success(value)])
    }

    /// Answers the requests `endpoint` describes with `value`, and gives the `NetworkResponse` forms this
    /// status and these headers, as ``stub(_:_:returning:statusCode:headers:)`` does.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - value: The answer, as for ``stub(_:returning:)``.
    ///   - statusCode: The reply's status; outside 2xx the request fails as it would with a real server.
    ///   - headers: The reply's headers.
    public func stub(
        _ endpoint: any Endpoint, returning value: Any, statusCode: Int, headers: [String: String] = [:]
    ) {
        stub(endpoint, outcomes: [.response(value, statusCode: statusCode, headers: headers)])
    }

    /// Answers the requests `endpoint` describes with `value`, as if from the layer's cache, as
    /// ``stub(_:_:returning:cacheStatus:statusCode:headers:)`` does.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - value: The answer, as for ``stub(_:returning:)``.
    ///   - cacheStatus: Where the reply came from, such as `.stale(error)` for data served offline.
    ///   - statusCode: The stored reply's status.
    ///   - headers: The stored reply's headers.
    public func stub(
        _ endpoint: any Endpoint, returning value: Any, cacheStatus: CacheStatus, statusCode: Int = 200,
        headers: [String: String] = [:]
    ) {
        stub(
            endpoint,
            outcomes: [.cached(value, cacheStatus: cacheStatus, statusCode: statusCode, headers: headers)])
    }

    /// Answers the requests `endpoint` describes with the contents of a file, decoded with the layer's
    /// decoder; see ``stub(_:_:returningContentsOf:statusCode:headers:)``.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - fileURL: The file, read now, such as a JSON fixture in the test bundle.
    ///   - statusCode: The reply's status.
    ///   - headers: The reply's headers.
    public func stub(
        _ endpoint: any Endpoint, returningContentsOf fileURL: URL, statusCode: Int = 200,
        headers: [String: String] = [:]
    ) {
        stub(endpoint, outcomes: [Self.fixtureOutcome(fileURL, statusCode, headers)])
    }

    /// Fails the requests `endpoint` describes with `error`.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - error: What their error handlers receive.
    public func stub(_ endpoint: any Endpoint, failingWith error: NetworkError) {
        stub(endpoint, outcomes: [.failure(error)])
    }

    /// Answers successive requests `endpoint` describes with `outcomes`, in order; the last repeats.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint whose requests (same method, path and query) are answered.
    ///   - outcomes: One answer per request, in order; the last one repeats.
    public func stub(_ endpoint: any Endpoint, outcomes: [DummyOutcome]) {
        stub(endpoint.method, pattern(for: endpoint), outcomes: outcomes)
    }

    /// How many requests `endpoint` describes (same method, path and query) were recorded.
    ///
    /// - Parameter endpoint: The endpoint to count the requests of.
    /// - Returns: The number of recorded requests with its method, path and query.
    public func callCount(_ endpoint: any Endpoint) -> Int {
        requests(endpoint.method, matching: pattern(for: endpoint)).count
    }

    /// The endpoint's URL by the real layer's rule; an endpoint the real layer refuses matches nothing,
    /// because its requests are never sent (nor recorded).
    private func pattern(for endpoint: any Endpoint) -> DummyURLPattern {
        guard let url = try? builder.url(for: NetworkRequest<EmptyResponse>(endpoint)) else {
            return .matchingNothing(endpoint.path)
        }
        return DummyURLPattern(url.absoluteString, resolver: builder.resolver)
    }
}
