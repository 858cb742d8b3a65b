import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A header one request's own interceptor adds.
private struct Signature: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var signed = request
        signed.setValue("signed", forHTTPHeaderField: "X-Signature")
        completion(.success(signed))
    }
}

/// The URLs of the requests a monitor saw finish.
private final class SeenURLs: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    let done: XCTestExpectation

    init(_ done: XCTestExpectation) {
        self.done = done
    }

    var urls: [String] { lock.withLock { seen } }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        lock.withLock { seen.append(request.url?.lastPathComponent ?? "?") }
        done.fulfill()
    }
}

/// Issue 19: what one request may choose for itself: its accepted statuses, its own interceptors and
/// monitors (through the real pipeline on a StubTransport).
final class PerRequestControlTests: XCTestCase {
    private let stubs = StubTransport()

    func testAnAcceptedStatusIsAValue() {
        stubs.stub(.get, .any, with: .json(["error": "none here"], status: 404))
        let network = stubs.makeNetworkLayer()
        var request = NetworkRequest<[String: String]>(urlString: "https://api.example.com/profile")
        request.acceptableStatusCodes = Set(200..<300).union([404])

        let result = outcome(of: NetworkResponse<[String: String]>.self) {
            network.send(request, successHandler: $0.success, errorHandler: $0.failure)
        }

        XCTAssertEqual(result?.value?.statusCode, 404)
        XCTAssertEqual(result?.value?.value, ["error": "none here"])
    }

    func testAStatusOutsideTheRequestsOwnSetFails() {
        stubs.stub(.get, .any, with: .json(["ok": "yes"], status: 200))
        let network = stubs.makeNetworkLayer()
        var request = NetworkRequest<[String: String]>(urlString: "https://api.example.com/created")
        request.acceptableStatusCodes = [201]

        let result = outcome(of: NetworkResponse<[String: String]>.self) {
            network.send(request, successHandler: $0.success, errorHandler: $0.failure)
        }

        XCTAssertEqual(result?.error?.statusCode, 200)
    }

    func testARequestsOwnInterceptorAndMonitorApplyToItAlone() {
        stubs.stub(.get, .any, with: .json(["a"]))
        let layerSaw = expectation(description: "the layer's monitor saw both")
        layerSaw.expectedFulfillmentCount = 2
        let requestSaw = expectation(description: "the request's monitor saw its request")
        let layerMonitor = SeenURLs(layerSaw)
        let requestMonitor = SeenURLs(requestSaw)
        let network = stubs.makeNetworkLayer(monitors: [layerMonitor])
        var signed = NetworkRequest<[String]>(urlString: "https://api.example.com/signed")
        signed.interceptors = [Signature()]
        signed.monitors = [requestMonitor]

        XCTAssertNotNil(
            outcome(of: NetworkResponse<[String]>.self) {
                network.send(signed, successHandler: $0.success, errorHandler: $0.failure)
            }?.value)
        XCTAssertNotNil(
            outcome(of: [String].self) {
                network.get(
                    urlString: "https://api.example.com/plain", successHandler: $0.success,
                    errorHandler: $0.failure)
            }?.value)
        wait(for: [layerSaw, requestSaw], timeout: 5)

        XCTAssertEqual(stubs.recordedRequests.map { $0.header("X-Signature") }, ["signed", nil])
        XCTAssertEqual(requestMonitor.urls, ["signed"])
        XCTAssertEqual(layerMonitor.urls, ["signed", "plain"])
    }
}

/// A request's own redirect policy replaces the layer's (through a real server: only the session
/// delegate sees redirects).
final class PerRequestRedirectTests: XCTestCase {
    func testTheRequestsPolicyDecidesWhatCrossesOrigins() throws {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        // 127.0.0.1 and localhost are different origins of the same server.
        let elsewhere = "http://localhost:\(server.port)/landing"
        for _ in 0..<2 {
            server.enqueue(MockResponse(status: 302, headers: ["Location": elsewhere]))
            server.enqueue(try .json(["landed"]))
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, redirectPolicy: RedirectPolicy(forwardsHeadersAcrossOrigins: true))
        var request = NetworkRequest<[String]>(urlString: "moved", headers: ["X-Trace": "t1"])

        for policy in [nil, RedirectPolicy.default] {
            request.redirectPolicy = policy
            let result = outcome(of: NetworkResponse<[String]>.self) {
                network.send(request, successHandler: $0.success, errorHandler: $0.failure)
            }
            XCTAssertEqual(result?.value?.value, ["landed"])
        }

        let landings = server.recordedRequests.filter { $0.path == "/landing" }
        XCTAssertEqual(landings.map { $0.header("X-Trace") }, ["t1", nil])
    }

    func testARequestThatFollowsNoRedirectGetsThe3xxItself() throws {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        server.enqueue(MockResponse(status: 302, headers: ["Location": "/landing"]))
        server.enqueue(MockResponse(status: 302, headers: ["Location": "/landing"]))
        let network = NetworkLayer(baseURL: server.baseURL)
        var request = NetworkRequest<Data>(urlString: "moved")
        request.redirectPolicy = .never

        let refused = outcome(of: NetworkResponse<Data>.self) {
            network.send(request, successHandler: $0.success, errorHandler: $0.failure)
        }
        guard case .unacceptableStatusCode(302, _, let headers)? = refused?.error else {
            return XCTFail("expected the 302 itself, got \(String(describing: refused))")
        }
        XCTAssertEqual(headers["location"], "/landing")

        request.acceptableStatusCodes = [302]
        let accepted = outcome(of: NetworkResponse<Data>.self) {
            network.send(request, successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(accepted?.value?.statusCode, 302)
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/moved", "/moved"], "nothing followed")
    }
}
