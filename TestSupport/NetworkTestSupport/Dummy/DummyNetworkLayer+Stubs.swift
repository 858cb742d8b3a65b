import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// Answers `method` requests to `urlString` with `value`, for the success handler.
    ///
    /// `urlString` is absolute, or relative to ``NetworkLayer/baseURL`` by the real layer's rule (with no
    /// base URL, a relative string matches its path on any host). A stub matches on scheme, host, port
    /// and path, ignoring the request's query, unless `urlString` has a query: then the query items must
    /// be the same, in any order. The most recently added matching stub answers, and per-request stubs
    /// take precedence over ``successResponse`` and ``errorResponse``. A request expecting a type other
    /// than `value`'s fails with a `.custom` error naming both types.
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
    public func stub(
        _ method: HTTPMethod, _ urlString: String, returning value: Any, statusCode: Int,
        headers: [String: String] = [:]
    ) {
        stub(method, urlString, outcomes: [.response(value, statusCode: statusCode, headers: headers)])
    }

    /// Answers `method` requests to `urlString` with the contents of a file, such as a JSON fixture in
    /// the test bundle, decoded with the layer's ``NetworkLayer/decoder`` as a real reply would be (the
    /// `Data` forms receive the bytes). URL matching is that of ``stub(_:_:returning:)``.
    ///
    /// ```swift
    /// let fixture = try XCTUnwrap(Bundle.module.url(forResource: "todos", withExtension: "json"))
    /// network.stub(.get, "/todos", returningContentsOf: fixture)
    /// ```
    ///
    /// The file is read now; one that cannot be read makes the stub fail every matching request with a
    /// `.custom` error naming the file, so the test fails where the fixture is missing.
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
    public func stub(_ method: HTTPMethod, _ urlString: String, outcomes: [DummyOutcome]) {
        stub(method, pattern(urlString), outcomes: outcomes)
    }

    func stub(_ method: HTTPMethod, _ pattern: DummyURLPattern, outcomes: [DummyOutcome]) {
        let stub = DummyStub(method: method, pattern: pattern, outcomes: outcomes)
        state.withLock { $0.stubs.append(stub) }
    }

    /// The recorded requests to `urlString` (matched as stubs match), with `method` if given, in order.
    public func requests(_ method: HTTPMethod? = nil, to urlString: String) -> [RecordedRequest] {
        requests(method, matching: pattern(urlString))
    }

    func requests(_ method: HTTPMethod?, matching pattern: DummyURLPattern) -> [RecordedRequest] {
        recordedRequests.filter { request in
            (method == nil || request.method == method) && pattern.matches(request.url)
        }
    }

    /// How many `method` requests to `urlString` (matched as stubs match) were recorded.
    public func callCount(_ method: HTTPMethod, _ urlString: String) -> Int {
        requests(method, to: urlString).count
    }

    private func pattern(_ urlString: String) -> DummyURLPattern {
        DummyURLPattern(urlString, resolver: builder.resolver)
    }
}
