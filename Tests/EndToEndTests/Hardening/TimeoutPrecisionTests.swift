import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// FoundationNetworking truncates timeouts to whole seconds (0.5 s fires at once, 1.9 s at 1 s); the
/// layer's own idle timer makes any positive timeout mean what it says.
final class TimeoutPrecisionTests: XCTestCase {
    /// Seconds from the request to its `.timedOut` against a server that never answers.
    private func timeOut(after timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line)
        throws
        -> TimeInterval
    {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout)
        let started = Date()
        let result = outcome(of: [String].self, timeout: timeout + 5, file: file, line: line) { recorder in
            network.get(urlString: "stall", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(
            result?.error?.isTimedOut, true, "\(String(describing: result))", file: file, line: line)
        XCTAssertGreaterThanOrEqual(elapsed, timeout - 0.02, "fired early", file: file, line: line)
        return elapsed
    }

    func testHalfASecondWaitsHalfASecond() throws {
        XCTAssertLessThan(try timeOut(after: 0.5), 1.0)
    }

    func testOneAndAHalfSecondsWaitOneAndAHalf() throws {
        XCTAssertLessThan(try timeOut(after: 1.5), 2.0)
    }

    func testTwoSecondsWaitTwo() throws {
        XCTAssertLessThan(try timeOut(after: 2), 2.5)
    }

    func testHalfASecondNeverFailsAnInstantReply() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 0.5)
        for index in 0..<40 {
            let result = outcome(of: [String].self) { recorder in
                network.get(
                    urlString: "fast", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value, ["ok"], "request \(index): \(String(describing: result))")
        }
    }

    func testDataArrivingKeepsASlowReplyAlive() throws {
        let server = try MockServer.started(in: self)
        // 2 KB in 20 chunks of 100 bytes, 0.1 s apart: 2 s in all, never idle for 0.5 s.
        server.enqueue(
            MockResponse(body: Data(repeating: 0x20, count: 2_000)).throttled(bytes: 100, every: 0.1))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 0.5)
        let result = outcome(of: Data.self) { recorder in
            network.request(
                Raw(), successHandler: { (value: EmptyResponse) in recorder.success(Data()) },
                errorHandler: recorder.failure)
        }
        XCTAssertNotNil(result?.value, "\(String(describing: result))")
    }

    private struct Raw: Endpoint {
        var path: String { "slow" }
        var method: HTTPMethod { .get }
    }
}
