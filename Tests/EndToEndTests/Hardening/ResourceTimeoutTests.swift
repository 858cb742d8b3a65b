import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A request's total time limit: a server trickling a byte at a time never lets the idle timeout pass,
/// and retries never end on their own; the resource timeout ends both.
final class ResourceTimeoutTests: XCTestCase {
    /// 1,000 bytes, one every 50 ms: 50 s in all, never idle for the 2 s timeout.
    private func tricklingServer() throws -> MockServer {
        let server = try MockServer.started(in: self)
        server.enqueue(
            MockResponse(body: Data(repeating: 0x20, count: 1_000)).throttled(bytes: 1, every: 0.05))
        return server
    }

    func testATricklingReplyEndsAtTheLayersResourceTimeout() throws {
        let server = try tricklingServer()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 2, resourceTimeout: 0.5)
        let started = Date()
        let result = outcome(of: Data.self, timeout: 10) { recorder in
            network.send(
                NetworkRequest(urlString: "trickle"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.isTimedOut, true, "\(String(describing: result))")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testARequestsOwnResourceTimeoutWinsOverTheLayers() throws {
        let server = try tricklingServer()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 2)
        var request = NetworkRequest<Data>(urlString: "trickle")
        request.resourceTimeout = 0.5
        let result = outcome(of: Data.self, timeout: 10) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.isTimedOut, true, "\(String(describing: result))")
    }

    /// Every attempt fails at once and the policy would retry for seconds more; the limit covers the waits.
    func testRetriesEndAtTheResourceTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, resourceTimeout: 0.5,
            retryPolicy: RetryPolicy(maximumAttempts: 16, initialDelay: 0.5, maximumDelay: 0.5))
        let started = Date()
        let result = outcome(of: Data.self, timeout: 10) { recorder in
            network.send(
                NetworkRequest(urlString: "busy"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.isTimedOut, true, "\(String(describing: result))")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testAQuickReplyIsUnaffected() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, resourceTimeout: 0.5)
        for _ in 0..<20 {
            let result = outcome(of: [String].self) { recorder in
                network.get(urlString: "ok", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        }
    }
}

extension ResourceTimeoutTests {
    /// As for `timeout`, a value that can't be a limit (zero, negative, NaN) is no value: the request is
    /// not timed out at once.
    func testAResourceTimeoutThatCantBeALimitIsNone() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, resourceTimeout: 0)
        for value in [0, -1, TimeInterval.nan] {
            var request = NetworkRequest<[String]>(urlString: "ok")
            request.resourceTimeout = value
            let result = outcome(of: [String].self) { recorder in
                network.send(
                    request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value, ["ok"], "\(value): \(String(describing: result))")
        }
    }
}
