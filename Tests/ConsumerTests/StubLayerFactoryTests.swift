import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A monitor that counts the requests it sees finish.
final class FinishCounter: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var finished: [String] = []
    var onFinish: @Sendable () -> Void = {}

    var urls: [String] { lock.withLock { finished } }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        lock.withLock { finished.append(request.url?.absoluteString ?? "?") }
        onFinish()
    }
}

/// Issue 19: `StubTransport.makeNetworkLayer` takes every parameter of `NetworkLayer.init`, so no test
/// builds the layer from `makeConfiguration()` by hand.
final class StubLayerFactoryTests: XCTestCase {
    private let staging = APIEnvironment(
        baseURL: URL(string: "https://staging.example.com/v2/")!, headers: ["X-Client": "tests"])

    func testAnEnvironmentWithMonitors() {
        let stubs = StubTransport()
        stubs.stub(.get, .path("/v2/todos"), with: .json([Todo(id: 1, title: "One")]))
        let monitor = FinishCounter()
        let finished = expectation(description: "the monitor saw the request finish")
        monitor.onFinish = { finished.fulfill() }
        let network = stubs.makeNetworkLayer(environment: staging, monitors: [monitor])
        let shown = expectation(description: "shown")
        network.get(
            urlString: "todos", successHandler: { (_: [Todo]) in shown.fulfill() },
            errorHandler: { XCTFail("\($0)") })
        wait(for: [shown, finished], timeout: 5)
        XCTAssertEqual(monitor.urls, ["https://staging.example.com/v2/todos"])
        XCTAssertEqual(stubs.recordedRequests.first?.header("X-Client"), "tests")
    }

    func testASizeLimitAndAStartingConfiguration() {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: StubResponse(body: Data(repeating: 1, count: 64)))
        let base = URLSessionConfiguration.ephemeral
        base.urlCache = nil
        let protocolCount = base.protocolClasses?.count
        let network = stubs.makeNetworkLayer(sessionConfiguration: base, maximumResponseSize: 16)
        let failed = expectation(description: "failed")
        network.get(
            urlString: "https://api.example.com/big", successHandler: { (_: Data) in XCTFail("too big") },
            errorHandler: { error in
                if case .transport(let urlError) = error {
                    XCTAssertEqual(urlError.code, .dataLengthExceedsMaximum)
                } else {
                    XCTFail("\(error)")
                }
                failed.fulfill()
            })
        wait(for: [failed], timeout: 5)
        XCTAssertEqual(
            stubs.recordedRequests.count, 1, "the transport answered the copy of the configuration")
        XCTAssertEqual(
            base.protocolClasses?.count, protocolCount, "the caller's configuration is not changed")
    }
}
