// The code of the README section "Monitoring and logging", exactly as printed there, so that it is
// known to compile and pass.

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// README: logging to the console in debug builds.

func makeNetworkLayer() -> NetworkLayer {
    #if DEBUG
        let monitors: [any NetworkMonitor] = [NetworkLogger(level: .requests)]
    #else
        let monitors: [any NetworkMonitor] = []
    #endif
    return NetworkLayer(baseURL: URL(string: "https://api.example.com/v1"), monitors: monitors)
}

// README: forwarding metrics to an analytics service.

/// Sends every request's outcome and timing to an analytics service.
struct AnalyticsMonitor: NetworkMonitor {
    /// The service's call, such as `Analytics.logEvent`: a closure, so tests can pass their own.
    let track: @Sendable (_ event: String, _ parameters: [String: String]) -> Void

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        var parameters = [
            "method": request.method.rawValue,
            "path": request.url?.path ?? "",
            "duration_ms": String(Int(metrics.duration * 1_000)),
            "bytes_received": String(metrics.bytesReceived),
            "attempts": String(metrics.attempts),
        ]
        switch result {
        case .success(let response): parameters["status"] = String(response.statusCode)
        case .failure(let error): parameters["error"] = error.statusCode.map(String.init) ?? "\(error)"
        }
        track("http_request", parameters)
    }
}

func makeTrackedNetworkLayer() -> NetworkLayer {
    let analytics = AnalyticsMonitor(track: { event, parameters in
        print(event, parameters)  // your analytics service here
    })
    return NetworkLayer(baseURL: URL(string: "https://api.example.com/v1"), monitors: [analytics])
}

// README: the curl command of a failed request.

func makeVerboseNetworkLayer() -> NetworkLayer {
    let logger = NetworkLogger(
        level: .full, redactedHeaders: ["X-Session-Token"], redactedQueryItems: ["signature"],
        bodyLimit: 1_024)
    return NetworkLayer(baseURL: URL(string: "https://api.example.com/v1"), monitors: [logger])
}

func printCurlCommand(for request: URLRequest) {
    print(NetworkLogger().curlCommand(for: request))
}

final class ReadmeMonitoringExamples: XCTestCase {
    // README: testing the analytics monitor with DummyNetworkLayer.

    func testEveryRequestIsTracked() {
        let tracked = expectation(description: "the request was tracked")
        let analytics = AnalyticsMonitor(track: { event, parameters in
            XCTAssertEqual(event, "http_request")
            XCTAssertEqual(parameters["path"], "/todos")
            XCTAssertEqual(parameters["status"], "200")
            tracked.fulfill()
        })
        let network = DummyNetworkLayer(monitors: [analytics])
        network.stub(.get, "https://api.example.com/todos", returning: [Todo(id: 1, title: "Write tests")])

        TodoListPresenter(view: SpyTodoListView(), networkLayer: network).load()

        wait(for: [tracked], timeout: 1)
    }

    // The other samples, run.

    func testTheLayersAreConfiguredAsShown() {
        XCTAssertEqual(makeNetworkLayer().monitors.count, 1)
        XCTAssertTrue(makeNetworkLayer().monitors.first is NetworkLogger)
        XCTAssertTrue(makeTrackedNetworkLayer().monitors.first is AnalyticsMonitor)
        let verbose = makeVerboseNetworkLayer().monitors.first as? NetworkLogger
        XCTAssertEqual(verbose?.level, .full)
        XCTAssertEqual(verbose?.bodyLimit, 1_024)
        XCTAssertTrue(verbose?.redactedHeaders.contains("x-session-token") == true)
    }

    func testTheCurlCommandInTheREADME() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://api.example.com/v1/todos")))
        request.httpMethod = "POST"
        request.setValue("Bearer abc123", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"id":1,"title":"Write tests"}"#.utf8)
        XCTAssertEqual(
            NetworkLogger().curlCommand(for: request),
            #"curl -X 'POST' 'https://api.example.com/v1/todos' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' --data-raw '{"id":1,"title":"Write tests"}'"#
        )
        printCurlCommand(for: request)
    }

    func testTheAnalyticsParametersOfAFailure() {
        let tracked = expectation(description: "the failure was tracked")
        nonisolated(unsafe) var seen: [String: String] = [:]
        let analytics = AnalyticsMonitor(track: { _, parameters in
            seen = parameters
            tracked.fulfill()
        })
        let network = DummyNetworkLayer(monitors: [analytics])
        network.stub(.get, "https://api.example.com/todos", returning: Data(), statusCode: 503, headers: [:])

        TodoListPresenter(view: SpyTodoListView(), networkLayer: network).load()

        wait(for: [tracked], timeout: 1)
        XCTAssertEqual(seen["error"], "503")
        XCTAssertEqual(seen["method"], "GET")
        XCTAssertEqual(seen["attempts"], "1")
        XCTAssertNil(seen["status"])
    }
}
