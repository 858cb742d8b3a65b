import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Back-pressure, cancels at any moment, and the async form.
final class StreamFlowTests: XCTestCase {
    /// One kilobyte event, again and again: how much of it the server produced so far is counted.
    private func endlessEvents(counting produced: ByteCount) -> MockResponse {
        let event = Data(("data: " + String(repeating: "x", count: 1_016) + "\n\n").utf8)
        let piece = Data((0..<64).map { _ in event }.joined())
        return MockResponse(
            headers: ["Content-Type": "text/event-stream"],
            content: .stream(length: nil) {
                {
                    produced.add(piece.count)
                    return piece
                }
            })
    }

    func testASlowEventHandlerHoldsTheServerBack() throws {
        let server = try MockServer.started(in: self)
        let produced = ByteCount()
        server.enqueue(endlessEvents(counting: produced))
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "slow consumer"))
        let consumed = ByteCount()
        let enough = expectation(description: "600 events handled")
        let completed = expectation(description: "completed")
        nonisolated(unsafe) var task: NetworkTask?
        task = network.stream(
            NetworkRequest(urlString: "feed"), as: .serverSentEvents,
            eventHandler: { event in
                // A consumer far slower than loopback: about 1 MB/s.
                // real wait: a slow consumer (the back pressure under test), not synchronisation
                Thread.sleep(forTimeInterval: 0.001)
                consumed.add(event.data.utf8.count)
                if consumed.value == 600 * 1_016 { enough.fulfill() }
            },
            completionHandler: { _ in completed.fulfill() })
        wait(for: [enough], timeout: 20)

        // Unheld, loopback would have produced hundreds of megabytes by now. Held, the server is ahead by
        // the delivery's bound, the session's queue and the sockets' buffers.
        XCTAssertLessThan(produced.value, 12 << 20, "produced \(produced.value) bytes")
        task?.cancel()
        wait(for: [completed], timeout: 10)
    }

    func testAStreamHeldBackForItsConsumerIsNotIdle() throws {
        let server = try MockServer.started(in: self)
        let events = (0..<600).map { ServerSentEvent(data: String(repeating: "x", count: 1_000) + "\($0)") }
        server.enqueue(.serverSentEvents(events))
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "slow consumer"))
        // The connection is held back for about 0.25 s at a time, more than twice the idle timeout.
        let options = ServerSentEventsOptions(reconnects: false, idleTimeout: 0.1)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options, timeout: 30
        ) { _, _ in
            // real wait: a slow consumer (the back pressure under test), not synchronisation
            Thread.sleep(forTimeInterval: 0.002)
        }

        XCTAssertEqual(
            try recording.outcome?.get().eventCount, 600, "\(String(describing: recording.outcome))")
        XCTAssertEqual(recording.elements.count, 600)
    }

    /// On Linux a cancel lands only once libcurl has read the socket empty, which a server writing small
    /// pieces flat out may never let happen: a stream that fails must end without waiting for it.
    func testAStreamFailingWhileTheServerPoursEndsAtOnce() throws {
        let server = try MockServer.started(in: self)
        let good = Data(#"{"index":1,"text":"a"}"#.utf8 + [0x0A])
        server.enqueue(
            MockResponse(
                headers: ["Content-Type": "application/jsonl"],
                content: .stream(length: nil) {
                    var sent = 0
                    return {
                        sent += 1
                        return sent == 500 ? Data("{oops}\n".utf8) : good
                    }
                }))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(
            network, NetworkRequest(urlString: "log"), as: .jsonLines(Token.self), timeout: 10)

        XCTAssertEqual(recording.elements.count, 499)
        guard case .failure(.decodingFailed(let error as StreamDecodingError, _)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(error.line, 500)
    }

    func testAnAsyncConsumerThatStopsAsking() async throws {
        let server = try MockServer.started(in: self)
        let produced = ByteCount()
        server.enqueue(endlessEvents(counting: produced))
        let network = NetworkLayer(baseURL: server.baseURL)
        var iterator = network.stream(NetworkRequest(urlString: "feed"), as: .serverSentEvents)
            .makeAsyncIterator()
        var count = 0
        for _ in 0..<10 where try await iterator.next() != nil { count += 1 }
        // The consumer stops asking while the transport would read on at loopback speed.
        let before = produced.value
        // real wait: a negative check; a transport reading on would produce megabytes within it
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(count, 10)
        XCTAssertLessThan(produced.value - before, 8 << 20, "produced \(produced.value) bytes")
        // Asking again, the stream goes on.
        let next = try await iterator.next()
        XCTAssertEqual(next?.data.count, 1_016)
    }

    func testAnAsyncStreamEndsWithTheReplyAndThrowsItsError() async throws {
        let server = try MockServer.started(in: self)
        let events = (1...3).map { ServerSentEvent(data: "\($0)") }
        server.enqueue(.serverSentEvents(events))
        server.enqueue(MockResponse(status: 503, text: "down"))
        let network = NetworkLayer(baseURL: server.baseURL)
        let request = NetworkRequest<Data>(method: .post, urlString: "chat")

        var received: [ServerSentEvent] = []
        for try await event in network.stream(request, as: .serverSentEvents) { received.append(event) }
        XCTAssertEqual(received, events)

        do {
            for try await _ in network.stream(request, as: .serverSentEvents) { XCTFail("no event") }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
    }

    func testBreakingOutOfTheLoopCancelsTheRequest() async throws {
        let server = try MockServer.started(in: self)
        let released = expectation(description: "the server stops producing")
        let probe = Released(released)
        let event = Data("data: tick\n\n".utf8)
        server.enqueue(
            MockResponse(
                headers: ["Content-Type": "text/event-stream"],
                content: .stream(length: nil) {
                    let token = probe.token()
                    return {
                        // Paced like a real event stream. (On Linux a cancel lands once libcurl has read the
                        // socket empty, which a local server writing flat out may delay: see LinuxNotes.)
                        // real wait: the server's pace (a real event stream's), not synchronisation
                        Thread.sleep(forTimeInterval: 0.002)
                        return withExtendedLifetime(token) { event }
                    }
                }))
        let network = NetworkLayer(baseURL: server.baseURL)

        var count = 0
        for try await _ in network.stream(NetworkRequest(urlString: "feed"), as: .serverSentEvents) {
            count += 1
            if count == 5 { break }
        }

        XCTAssertEqual(count, 5)
        await fulfillment(of: [released], timeout: 10)
    }

    func testCancellingTheConsumingTaskEndsTheLoopWithCancelled() async throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "first")], ending: .stall))
        let network = NetworkLayer(baseURL: server.baseURL)
        let first = expectation(description: "first event")

        let consumer = Task { () -> NetworkError in
            do throws(NetworkError) {
                for try await _ in network.stream(NetworkRequest(urlString: "feed"), as: .serverSentEvents) {
                    first.fulfill()
                }
                return NetworkError.custom("ended")
            } catch {
                return error
            }
        }
        await fulfillment(of: [first], timeout: 10)
        consumer.cancel()
        let error = await consumer.value
        guard case .cancelled = error else { return XCTFail("\(error)") }
    }

    /// Cancels at random moments, from another thread, while events pour in: each stream completes
    /// exactly once, and no event follows its completion.
    func testCancelsAtRandomMomentsCompleteExactlyOnce() throws {
        let server = try MockServer.started(in: self)
        let events = (0..<200).map { ServerSentEvent(data: "\($0)") }
        server.handler = { _ in .serverSentEvents(events) }
        let queue = DispatchQueue(label: "stream handlers")
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let runs = 1_000
        let deadline = Date().addingTimeInterval(90)
        var outcomes = (cancelled: 0, finished: 0)

        for run in 0..<runs where Date() < deadline {
            let recording = StreamRecording<ServerSentEvent>(expectation(description: "run \(run)"))
            let task = network.stream(
                NetworkRequest(urlString: "feed"), as: .serverSentEvents, eventHandler: recording.receive,
                completionHandler: recording.finish)
            // real wait: a random cancel moment (the race under test), not synchronisation
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...3_000))) {
                task.cancel()
            }
            wait(for: [recording.completed], timeout: 10)
            // Anything late would arrive on the handlers' queue before this.
            queue.sync {}
            XCTAssertEqual(recording.violations, [], "run \(run)")
            XCTAssertEqual(recording.outcomeCount, 1, "run \(run)")
            switch recording.outcome {
            case .success?:
                outcomes.finished += 1
                XCTAssertEqual(recording.elements, events, "run \(run)")
            case .failure(.cancelled)?:
                outcomes.cancelled += 1
                XCTAssertEqual(
                    recording.elements, Array(events.prefix(recording.elements.count)), "run \(run)")
            case let other:
                XCTFail("run \(run): \(String(describing: other))")
            }
        }
        XCTAssertGreaterThan(outcomes.cancelled, 0)
    }
}

/// Bytes counted from several threads.
final class ByteCount: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    func add(_ bytes: Int) { lock.withLock { total += bytes } }
    var value: Int { lock.withLock { total } }
}

/// Fulfils an expectation when every token it handed out is gone.
final class Released: @unchecked Sendable {
    private let expectation: XCTestExpectation

    init(_ expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func token() -> AnyObject { Token(expectation) }

    private final class Token {
        let expectation: XCTestExpectation
        init(_ expectation: XCTestExpectation) { self.expectation = expectation }
        deinit { expectation.fulfill() }
    }
}
