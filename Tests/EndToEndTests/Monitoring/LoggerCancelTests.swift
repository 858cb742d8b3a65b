import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A request or a stream the caller cancels is logged as a cancel, not as a failure.
final class LoggerCancelTests: XCTestCase {
    /// A layer whose loggers (one per level) write to `lines`, and a watcher that sees each finish after
    /// the loggers have written theirs.
    private func layer(_ server: MockServer, lines: LineCollector, watcher: EventRecorder) -> NetworkLayer {
        let loggers = [NetworkLogger.Level.errors, .requests, .full].map { level in
            let sink = lines.sink
            return NetworkLogger(level: level, sink: { sink("\(level): \($0)") })
        }
        return NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 10,
            monitors: loggers + [watcher])
    }

    private func assertLoggedAsACancel(
        _ lines: [String], path: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let text = lines.joined(separator: "\n")
        XCTAssertFalse(
            lines.contains { $0.hasPrefix("errors: ") }, "a cancel is no error:\n\(text)", file: file,
            line: line)
        XCTAssertFalse(lines.contains { $0.contains("✗") }, "not a failure:\n\(text)", file: file, line: line)
        XCTAssertFalse(
            text.contains("curl"), "no curl command for a cancel:\n\(text)", file: file, line: line)
        for level in ["requests", "full"] {
            let finish = lines.filter { $0.hasPrefix("\(level): ⊘ #") }
            XCTAssertEqual(finish.count, 1, "\(level):\n\(text)", file: file, line: line)
            XCTAssertTrue(
                finish.first?.contains("GET http://127.0.0.1:") == true, "\(finish)", file: file, line: line)
            XCTAssertTrue(
                finish.first?.contains("/\(path) → cancelled (") == true, "\(finish)", file: file, line: line)
        }
    }

    func testARequestTheCallerCancelsIsLoggedAsACancel() throws {
        let server = try MockServer.started(in: self)
        // 1 MB, 4 KB every 50 ms: about 13 s in full, far longer than the test waits.
        server.enqueue(MockResponse(body: TestData.bytes(1_048_576)).throttled(bytes: 4_096, every: 0.05))
        let lines = LineCollector()
        let watcher = EventRecorder()
        let finished = watcher.expectFinishes(1, self)
        let network = layer(server, lines: lines, watcher: watcher)

        var task: NetworkTask?
        let result = outcome(of: Data.self) { recorder in
            let started = network.get(
                urlString: "slow", successHandler: recorder.success, errorHandler: recorder.failure)
            task = started
            return started
        } beforeWaiting: {
            XCTAssertNotNil(server.takeRequest(timeout: 5), "the server got the request")
            task?.cancel()
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(result?.error?.isCancelled, true, "\(String(describing: result))")
        assertLoggedAsACancel(lines.lines, path: "slow")
    }

    func testAStreamTheCallerStopsIsLoggedAsACancel() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            .streamed(
                [Data(String(repeating: "data: x\n\n", count: 1000).utf8)], contentType: "text/event-stream"))
        let lines = LineCollector()
        let watcher = EventRecorder()
        let finished = watcher.expectFinishes(1, self)
        let network = layer(server, lines: lines, watcher: watcher)

        let recording = record(network, NetworkRequest(urlString: "feed"), as: .serverSentEvents) { _, task in
            task?.cancel()
        }
        wait(for: [finished], timeout: 10)

        guard case .failure(.cancelled) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        assertLoggedAsACancel(lines.lines, path: "feed")
    }
}
