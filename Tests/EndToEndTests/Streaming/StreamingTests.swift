import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Streams end to end on MockServer: server-sent events, JSON Lines and chunks, reconnection, failures,
/// cancels and back-pressure.
final class StreamingTests: XCTestCase {
    private let events = (1...5).map { ServerSentEvent(data: "token \($0)", id: "\($0)") }

    func testServerSentEventsArriveInOrderThenOneCompletion() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(events, interval: 0.01))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents)

        XCTAssertEqual(recording.elements, events)
        let summary = try XCTUnwrap(recording.outcome).get()
        XCTAssertEqual(summary.eventCount, 5)
        XCTAssertEqual(summary.lastEventID, "5")
        XCTAssertEqual(summary.reconnectCount, 0)
        XCTAssertEqual(summary.statusCode, 200)
        XCTAssertEqual(server.takeRequest()?.header("Accept"), "text/event-stream")
    }

    func testOnAConcurrentCallbackQueueEventHandlersRunOneAtATimeInOrder() throws {
        let server = try MockServer.started(in: self)
        let many = (1...100).map { ServerSentEvent(data: "token \($0)") }
        server.enqueue(.serverSentEvents(many, interval: 0.001))
        let network = NetworkLayer(
            baseURL: server.baseURL,
            callbackQueue: DispatchQueue(label: "concurrent callbacks", attributes: .concurrent))

        let running = Counter()
        let overlaps = Counter()
        let recording = record(
            network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents
        ) { _, _ in
            // Slow enough that later events arrive while earlier ones are being handled.
            if running.incremented() > 1 { overlaps.increment() }
            // real wait: a slow handler, so events overlap (the behaviour under test)
            Thread.sleep(forTimeInterval: 0.003)
            running.decrement()
        }

        XCTAssertEqual(overlaps.value, 0, "event handlers ran at the same time")
        XCTAssertEqual(recording.elements.map(\.data), many.map(\.data))
        XCTAssertEqual(try recording.outcome?.get().eventCount, 100)
    }

    func testAPOSTStreamIsNeverRepeated() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(events, ending: .disconnectMidEvent))
        server.enqueue(.serverSentEvents(events))
        let network = NetworkLayer(baseURL: server.baseURL, retryPolicy: .default)

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents)

        XCTAssertEqual(recording.elements, Array(events.dropLast()))
        guard case .failure(.transport(let error)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testAGETStreamReconnectsWithLastEventIDAndResumes() throws {
        let server = try MockServer.started(in: self)
        let all = events
        server.handler = { request in
            switch request.header("Last-Event-ID") {
            // The first connection dies in the middle of the fourth event.
            case nil: .serverSentEvents(Array(all.prefix(4)), ending: .disconnectMidEvent)
            // Everything was delivered: 204 tells the client to stop.
            case "5"?: MockResponse(status: 204)
            default: .serverSentEvents(all, resuming: request)
            }
        }
        let network = NetworkLayer(baseURL: server.baseURL)
        let options = ServerSentEventsOptions(reconnectionDelay: 0.05, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        XCTAssertEqual(recording.elements, events)
        XCTAssertEqual(server.recordedRequests.map { $0.header("Last-Event-ID") }, [nil, "3", "5"])
        let summary = try XCTUnwrap(recording.outcome).get()
        XCTAssertEqual(summary.reconnectCount, 2)
        XCTAssertEqual(summary.eventCount, 5)
        XCTAssertEqual(summary.metrics?.attempts, 3)
    }

    func testReconnectionStopsAfterItsMaximumInARowWithoutAnEvent() throws {
        let server = try MockServer.started(in: self)
        server.handler = { _ in .serverSentEvents([]) }
        let network = NetworkLayer(baseURL: server.baseURL)
        let options = ServerSentEventsOptions(
            maximumReconnects: 3, reconnectionDelay: 0.01, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        guard case .failure(.transport(let error)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testTheServersRetryTimeAndA204EndReconnection() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1", retry: 0.02)]))
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(baseURL: server.baseURL)

        let options = ServerSentEventsOptions(minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        let summary = try XCTUnwrap(recording.outcome).get()
        XCTAssertEqual(summary.statusCode, 204)
        XCTAssertEqual(summary.reconnectCount, 1)
        XCTAssertEqual(summary.eventCount, 1)
        XCTAssertEqual(server.requestCount, 2)
    }

    func testJSONLinesDecodeAndABadLineIsNamed() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(try .jsonLines([Token(index: 1, text: "a"), Token(index: 2, text: "b")]))
        let lines = [#"{"index":1,"text":"a"}"#, "", #"{"index":3,"text":}"#, #"{"index":4,"text":"d"}"#]
        // One chunk: the good line before the bad one is still delivered.
        let body = Data(lines.joined(separator: "\n").utf8)
        server.enqueue(.streamed([body], contentType: "application/jsonl"))
        let network = NetworkLayer(baseURL: server.baseURL)

        let good = record(network, NetworkRequest(urlString: "log"), as: .jsonLines(Token.self))
        XCTAssertEqual(good.elements, [Token(index: 1, text: "a"), Token(index: 2, text: "b")])
        XCTAssertEqual(try good.outcome?.get().eventCount, 2)

        let bad = record(network, NetworkRequest(urlString: "log"), as: .jsonLines(Token.self))
        XCTAssertEqual(bad.elements, [Token(index: 1, text: "a")])
        guard case .failure(.decodingFailed(let error as StreamDecodingError, let body)) = bad.outcome else {
            return XCTFail("\(String(describing: bad.outcome))")
        }
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), lines[2])
    }

    func testANon2xxReplyFailsWithItsBodyBeforeAnyEvent() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, text: "slow down"))
        server.enqueue(
            MockResponse(status: 200, headers: ["Content-Type": "text/html"], text: "data: no\n\n"))
        let network = NetworkLayer(baseURL: server.baseURL)

        let refused = record(network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents)
        XCTAssertEqual(refused.elements, [])
        XCTAssertEqual(refused.outcome?.error?.statusCode, 429)
        XCTAssertEqual(refused.outcome?.error?.responseBody, Data("slow down".utf8))

        var request = NetworkRequest<Data>(method: .post, urlString: "chat")
        request.acceptableContentTypes = ["text/event-stream"]
        let wrongType = record(network, request, as: .serverSentEvents)
        XCTAssertEqual(wrongType.elements, [])
        guard case .failure(.unacceptableContentType("text/html", _, _)) = wrongType.outcome else {
            return XCTFail("\(String(describing: wrongType.outcome))")
        }
    }

    /// The request's acceptable statuses decide which replies are the stream, as they decide success.
    func testTheRequestsAcceptableStatusCodesDecideWhatIsStreamed() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(events, status: 206))
        server.enqueue(.serverSentEvents(events, status: 203))
        let network = NetworkLayer(baseURL: server.baseURL)
        var request = NetworkRequest<Data>(method: .post, urlString: "chat")
        request.acceptableStatusCodes = [200, 206]

        let accepted = record(network, request, as: .serverSentEvents)
        XCTAssertEqual(accepted.elements, events)
        XCTAssertEqual(try accepted.outcome?.get().statusCode, 206)

        let refused = record(network, request, as: .serverSentEvents)
        XCTAssertEqual(refused.elements, [])
        XCTAssertEqual(refused.outcome?.error?.statusCode, 203)
    }

    func testAStalledStreamTimesOutOnItsIdleTimeout() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(Array(events.prefix(2)), ending: .stall))
        let network = NetworkLayer(baseURL: server.baseURL)
        let options = ServerSentEventsOptions(reconnects: false, idleTimeout: 0.3)
        let started = Date()

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        XCTAssertEqual(recording.elements, Array(events.prefix(2)))
        guard case .failure(.timedOut) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testAnIdleTimeoutThatIsNoTimeoutLeavesTheRequestsTimeout() throws {
        let server = try MockServer.started(in: self)
        let ticks = (0..<10).map { ServerSentEvent(data: "tick \($0)") }
        server.enqueue(.serverSentEvents(ticks, interval: 0.02))
        let network = NetworkLayer(baseURL: server.baseURL)
        let options = ServerSentEventsOptions(reconnects: false, idleTimeout: 0)

        let recording = record(
            network, NetworkRequest(urlString: "ticks"), as: .serverSentEvents, options: options)

        XCTAssertEqual(recording.elements.count, 10)
        XCTAssertNil(recording.outcome?.error)
    }

    func testChunksArriveAsTheyAreWritten() throws {
        let server = try MockServer.started(in: self)
        let pieces = (0..<20).map { Data("piece \($0);".utf8) }
        server.enqueue(.streamed(pieces, contentType: "text/plain", interval: 0.005))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(network, NetworkRequest(urlString: "raw"), as: .chunks)

        XCTAssertEqual(recording.elements.reduce(Data(), +), pieces.reduce(Data(), +))
        XCTAssertGreaterThan(recording.elements.count, 1)
    }

    func testACancelFromTheEventHandlerStopsEverythingAfterIt() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            .streamed(
                [Data(String(repeating: "data: x\n\n", count: 1000).utf8)], contentType: "text/event-stream"))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(network, NetworkRequest(urlString: "feed"), as: .serverSentEvents) { _, task in
            task?.cancel()
        }

        XCTAssertEqual(recording.elements.count, 1)
        guard case .failure(.cancelled) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
