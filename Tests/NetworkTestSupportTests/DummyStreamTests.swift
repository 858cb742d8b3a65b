import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Streams on the dummy: a scripted body delivered at once, or held and fed one event at a time.
final class DummyStreamTests: XCTestCase {
    private let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
    private let events = [ServerSentEvent(data: "Hel"), ServerSentEvent(data: "lo", id: "2")]

    /// Everything one stream hands over, in order: `event <data>` or `end <count>` / `error <error>`.
    private final class Log: @unchecked Sendable {
        var entries: [String] = []
    }

    @discardableResult
    private func stream(
        _ log: Log, request: NetworkRequest<Data> = NetworkRequest(method: .post, urlString: "chat")
    )
        -> NetworkTask
    {
        network.stream(
            request, as: .serverSentEvents,
            eventHandler: { log.entries.append("event \($0.data)") },
            completionHandler: { result in
                switch result {
                case .success(let summary): log.entries.append("end \(summary.eventCount)")
                case .failure(let error): log.entries.append("error \(error)")
                }
            })
    }

    func testAScriptedBodyIsDeliveredEventByEventThenTheCompletion() {
        network.successResponse = Data.eventStream(events)
        let log = Log()

        stream(log)

        XCTAssertEqual(log.entries, ["event Hel", "event lo", "end 2"])
        XCTAssertEqual(network.recordedRequests.map(\.url.path), ["/chat"])
        // Sent as the real layer sends it.
        XCTAssertEqual(network.recordedRequests.first?.headers["Accept"], "text/event-stream")
        XCTAssertEqual(network.recordedRequests.first?.method, .post)
    }

    func testTheSummaryNamesTheLastEventIDAsTheRealLayerDoes() {
        network.successResponse = Data.eventStream(events)
        var summary: StreamSummary?
        network.stream(
            NetworkRequest(urlString: "feed"), as: .serverSentEvents, eventHandler: { _ in },
            completionHandler: { summary = try? $0.get() })
        XCTAssertEqual(summary?.lastEventID, "2")
    }

    func testAHeldStreamIsFedOneEventAtATime() throws {
        network.holdsReplies = true
        let log = Log()
        stream(log)
        let held = try XCTUnwrap(network.pendingRequests.first)

        held.push(events[0])
        XCTAssertEqual(log.entries, ["event Hel"])
        held.push(Data("data: lo\n".utf8))
        XCTAssertEqual(log.entries, ["event Hel"], "not dispatched before its blank line")
        held.push(Data("\n".utf8))
        XCTAssertEqual(log.entries, ["event Hel", "event lo"])
        held.finishStream()

        XCTAssertEqual(log.entries, ["event Hel", "event lo", "end 2"])
        XCTAssertTrue(network.pendingRequests.isEmpty)
        held.push(events[0])
        XCTAssertEqual(log.entries.count, 3, "nothing after the completion")
    }

    func testAHeldStreamFailsOrIsCancelledWithNothingAfter() throws {
        network.holdsReplies = true
        let failing = Log()
        stream(failing)
        let first = try XCTUnwrap(network.pendingRequests.first)
        first.push(events[0])
        first.fail(with: .timedOut)
        XCTAssertEqual(failing.entries, ["event Hel", "error \(NetworkError.timedOut)"])

        let cancelled = Log()
        let task = stream(cancelled)
        let second = try XCTUnwrap(network.pendingRequests.first)
        task.cancel()
        second.push(events[0])
        XCTAssertEqual(cancelled.entries, ["error \(NetworkError.cancelled)"])
    }

    func testAPushedLineThatDoesNotDecodeEndsTheHeldStream() throws {
        struct Line: Codable, Equatable { var n: Int }
        network.holdsReplies = true
        var lines: [Line] = []
        var outcomes: [String] = []
        network.stream(
            NetworkRequest(urlString: "log"), as: .jsonLines(Line.self), eventHandler: { lines.append($0) },
            completionHandler: { outcomes.append("\($0)") })
        let held = try XCTUnwrap(network.pendingRequests.first)

        held.push(jsonLine: Line(n: 1))
        held.push(Data("{\"n\":}\n".utf8))

        XCTAssertEqual(lines, [Line(n: 1)])
        XCTAssertEqual(outcomes.count, 1)
        XCTAssertTrue(outcomes.first?.contains("decodingFailed") == true, "\(outcomes)")
        XCTAssertTrue(network.pendingRequests.isEmpty)
    }

    func testJSONLinesAndABadLineAsTheRealLayerDecodesThem() throws {
        struct Line: Codable, Equatable { var n: Int }
        network.successResponse = try Data.jsonLines([Line(n: 1), Line(n: 2)]) + Data("{\"n\":}\n".utf8)
        var lines: [Line] = []
        var failure: NetworkError?

        network.stream(
            NetworkRequest(urlString: "log"), as: .jsonLines(Line.self), eventHandler: { lines.append($0) },
            completionHandler: { if case .failure(let error) = $0 { failure = error } })

        XCTAssertEqual(lines, [Line(n: 1), Line(n: 2)])
        guard case .decodingFailed(let error as StreamDecodingError, _)? = failure else {
            return XCTFail("\(String(describing: failure))")
        }
        XCTAssertEqual(error.line, 3)
    }

    func testTheAsyncFormReadsTheScriptToo() async throws {
        network.successResponse = Data.eventStream(events)
        var received: [ServerSentEvent] = []
        for try await event in network.stream(NetworkRequest(urlString: "feed"), as: .serverSentEvents) {
            received.append(event)
        }
        XCTAssertEqual(received, events)
    }

    /// A loop whose task was cancelled before it began sends nothing.
    func testAnAsyncLoopInACancelledTaskSendsNoRequest() async {
        network.successResponse = Data.eventStream(events)
        let stream = network.stream(NetworkRequest(urlString: "feed"), as: .serverSentEvents)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = stream.makeAsyncIterator()
            do {
                let first = try await iterator.next()
                return "element \(String(describing: first))"
            } catch {
                return "\(error)"
            }
        }
        let outcome = await task.value
        XCTAssertEqual(outcome, "\(NetworkError.cancelled)")
        XCTAssertEqual(network.recordedRequests.count, 0)
    }

    func testAnErrorScriptFailsTheStreamBeforeAnyEvent() {
        network.errorResponse = .unacceptableStatusCode(429, body: Data(), headers: [:])
        let log = Log()
        stream(log)
        XCTAssertEqual(log.entries.count, 1)
        XCTAssertTrue(log.entries[0].hasPrefix("error"))
    }
}
