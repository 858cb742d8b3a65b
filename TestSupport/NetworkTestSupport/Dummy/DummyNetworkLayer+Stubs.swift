import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// Answers `method` requests to `urlString` with `value`, for the success handler.
    ///
    /// `urlString` is absolute, or relative to the layer's `baseURL` by the real layer's rule (with no
    /// base URL, a relative string matches its path on any host). A stub matches on scheme, host, port
    /// and path, ignoring the request's query, unless `urlString` has a query: then the query items must
    /// be the same, in any order. The most recently added matching stub answers, and per-request stubs
    /// take precedence over ``successResponse`` and ``errorResponse``. A request expecting a type other
    /// than `value`'s fails with a `.custom` error naming both types.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: An absolute URL, or a path resolved against the base URL, as described above.
    ///   - value: The answer: a value of the type the request expects, or `Data` decoded as the real
    ///     layer would.
    public func stub(_ method: HTTPMethod, _ urlString: String, returning value: Any) {
        stub(method, urlString, outcomes: [.success(value)])
    }

    /// Answers `method` requests to `urlString` with `value`, and gives the `NetworkResponse` forms this
    /// status and these headers. URL matching is that of ``stub(_:_:returning:)``. A status outside 2xx
    /// fails as the real layer does: `.unacceptableStatusCode` with the status, the headers, and `value`
    /// as the body when it is `Data`.
    ///
    /// ```swift
    /// network.stub(.get, "/items", returning: fixtureData, statusCode: 200, headers: ["X-Total-Count": "42"])
    /// ```
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - value: The answer: a value of the type the request expects, or `Data` decoded as the real
    ///     layer would.
    ///   - statusCode: The reply's status; outside 2xx the request fails as it would with a real server.
    ///   - headers: The reply's headers.
    public func stub(
        _ method: HTTPMethod, _ urlString: String, returning value: Any, statusCode: Int,
        headers: [String: String] = [:]
    ) {
        stub(method, urlString, outcomes: [.response(value, statusCode: statusCode, headers: headers)])
    }

    /// Answers `method` requests to `urlString` with `value`, as if from the layer's cache: the
    /// `NetworkResponse` forms see `cacheStatus`, and the stored reply's status and headers. URL matching
    /// is that of ``stub(_:_:returning:)``.
    ///
    /// ```swift
    /// network.stub(
    ///     .get, "/items", returning: savedItems, cacheStatus: .stale(.timedOut),
    ///     headers: ["Link": "<https://api.example.com/items?page=2>; rel=\"next\""])
    /// ```
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - value: The answer, as for ``stub(_:_:returning:)``.
    ///   - cacheStatus: Where the reply came from, such as `.stale(error)` for data served offline.
    ///   - statusCode: The stored reply's status; outside 2xx the request fails as the real layer fails it.
    ///   - headers: The stored reply's headers, such as a `Link` to the next page.
    public func stub(
        _ method: HTTPMethod, _ urlString: String, returning value: Any, cacheStatus: CacheStatus,
        statusCode: Int = 200, headers: [String: String] = [:]
    ) {
        stub(
            method, urlString,
            outcomes: [.cached(value, cacheStatus: cacheStatus, statusCode: statusCode, headers: headers)])
    }

    /// Answers `method` requests to `urlString` with the contents of a file, such as a JSON fixture in
    /// the test bundle, decoded with the layer's `decoder` as a real reply would be (the
    /// `Data` forms receive the bytes). URL matching is that of ``stub(_:_:returning:)``.
    ///
    /// ```swift
    /// let fixture = try XCTUnwrap(Bundle.module.url(forResource: "todos", withExtension: "json"))
    /// network.stub(.get, "/todos", returningContentsOf: fixture)
    /// ```
    ///
    /// The file is read now; one that cannot be read makes the stub fail every matching request with a
    /// `.custom` error naming the file, so the test fails where the fixture is missing.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - fileURL: The file, read now, such as a JSON fixture in the test bundle.
    ///   - statusCode: The reply's status.
    ///   - headers: The reply's headers.
    public func stub(
        _ method: HTTPMethod, _ urlString: String, returningContentsOf fileURL: URL, statusCode: Int = 200,
        headers: [String: String] = [:]
    ) {
        stub(method, urlString, outcomes: [Self.fixtureOutcome(fileURL, statusCode, headers)])
    }

    /// The outcome a fixture file gives: its bytes, or the error saying why it could not be read.
    static func fixtureOutcome(_ fileURL: URL, _ statusCode: Int, _ headers: [String: String]) -> DummyOutcome
    {
        do {
            return .response(try Data(contentsOf: fileURL), statusCode: statusCode, headers: headers)
        } catch {
            return .failure(
                .custom("DummyNetworkLayer: could not read the fixture \(fileURL.path): \(error)"))
        }
    }

    /// Fails `method` requests to `urlString` with `error`. URL matching is that of
    /// ``stub(_:_:returning:)``.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - error: What their error handlers receive.
    public func stub(_ method: HTTPMethod, _ urlString: String, failingWith error: NetworkError) {
        stub(method, urlString, outcomes: [.failure(error)])
    }

    /// Answers successive `method` requests to `urlString` with `outcomes`, in order; once they are used
    /// up, the last one repeats. URL matching is that of ``stub(_:_:returning:)``.
    ///
    /// ```swift
    /// network.stub(.get, "/flaky", outcomes: [.failure("offline"), .success(employee)])
    /// ```
    ///
    /// An empty list answers every matching request with a `.custom` error that says so.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - outcomes: One answer per request, in order; the last one repeats.
    public func stub(_ method: HTTPMethod, _ urlString: String, outcomes: [DummyOutcome]) {
        stub(method, pattern(urlString), outcomes: outcomes)
    }

    func stub(
        _ method: HTTPMethod, _ pattern: DummyURLPattern, outcomes: [DummyOutcome],
        stored: DummyOutcome? = nil
    ) {
        let stub = DummyStub(method: method, pattern: pattern, outcomes: outcomes, stored: stored)
        state.withLock { $0.stubs.append(stub) }
    }

    /// The recorded requests to `urlString` (matched as stubs match), with `method` if given, in order.
    ///
    /// - Parameters:
    ///   - method: Only requests with this method; `nil`, the default, for any method.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    /// - Returns: The matching requests of ``recordedRequests``, oldest first.
    public func requests(_ method: HTTPMethod? = nil, to urlString: String) -> [RecordedRequest] {
        requests(method, matching: pattern(urlString))
    }

    func requests(_ method: HTTPMethod?, matching pattern: DummyURLPattern) -> [RecordedRequest] {
        recordedRequests.filter { request in
            (method == nil || request.method == method) && pattern.matches(request.url)
        }
    }

    /// How many `method` requests to `urlString` (matched as stubs match) were recorded.
    ///
    /// - Parameters:
    ///   - method: The requests' HTTP method.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    /// - Returns: The number of matching requests in ``recordedRequests``.
    public func callCount(_ method: HTTPMethod, _ urlString: String) -> Int {
        requests(method, to: urlString).count
    }

    private func pattern(_ urlString: String) -> DummyURLPattern {
        DummyURLPattern(urlString, resolver: builder.resolver)
    }
}
