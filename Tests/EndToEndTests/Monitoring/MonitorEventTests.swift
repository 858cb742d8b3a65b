import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a monitor is told, in which order, for each way a request can end.
final class MonitorEventTests: XCTestCase {
    private func layer(
        _ server: MockServer, retryPolicy: RetryPolicy = .none, monitors: [any NetworkMonitor]
    ) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, defaultHeaders: ["X-Client": "monitor-tests"],
            sessionConfiguration: .ephemeral, encoder: TestData.encoder(), retryPolicy: retryPolicy,
            monitors: monitors)
    }

    func testSuccessIsBuiltStartedReceivedAndFinishedWithItsMetrics() throws {
        let server = try MockServer.echoing(in: self)
        let recorder = EventRecorder()
        let network = layer(server, monitors: [recorder])
        let note = Note(id: 7, text: "seven")
        let sentBody = try TestData.encoder().encode(note)
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(
                NetworkRequest(
                    method: .post, urlString: "notes?view=full", headers: ["X-Trace": "t-1"],
                    body: .json(note)),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        let response = try XCTUnwrap(result?.value, "\(String(describing: result))")
        XCTAssertEqual(recorder.summaries, ["build 1", "start 1", "receive 1 200", "finish 200"])
        let events = recorder.events
        XCTAssertEqual(Set(events.map(\.request)).count, 1, "one request id throughout")
        let request = try XCTUnwrap(events.first?.request)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.url, server.url("notes?view=full"))
        XCTAssertEqual(events.compactMap(\.attemptNumber), [1, 1, 1])

        let built = try XCTUnwrap(events[0].built)
        XCTAssertEqual(built.httpMethod, "POST")
        XCTAssertEqual(built.url, server.url("notes?view=full"))
        XCTAssertEqual(built.value(forHTTPHeaderField: "X-Trace"), "t-1")
        XCTAssertEqual(built.value(forHTTPHeaderField: "X-Client"), "monitor-tests")
        XCTAssertEqual(built.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(built.httpBody, sentBody)
        XCTAssertEqual(response.value.headers["x-trace"], "t-1", "what was built is what was sent")

        let received = try XCTUnwrap(events[2].received)
        XCTAssertEqual(received.response.statusCode, 200)
        XCTAssertEqual(received.body, response.data)

        let finish = try XCTUnwrap(events[3].finished)
        let raw = try XCTUnwrap(finish.result.value, "\(finish.result)")
        XCTAssertEqual(raw.statusCode, 200)
        XCTAssertEqual(raw.headers["content-type"], "application/json")
        XCTAssertEqual(raw.value, response.data, "the raw body")
        XCTAssertEqual(raw.data, response.data)
        XCTAssertEqual(raw.url, server.url("notes?view=full"))

        let metrics = finish.metrics
        XCTAssertGreaterThan(metrics.duration, 0)
        let firstByte = try XCTUnwrap(metrics.timeToFirstByte)
        XCTAssertGreaterThanOrEqual(firstByte, 0)
        XCTAssertLessThanOrEqual(firstByte, metrics.duration)
        XCTAssertEqual(metrics.bytesSent, sentBody.count)
        XCTAssertEqual(metrics.bytesReceived, response.data.count)
        XCTAssertEqual(metrics.attempts, 1)
        XCTAssertLessThanOrEqual(abs(metrics.startDate.timeIntervalSinceNow), 60)
    }

    /// Regression: the success handler's `response.metrics` were taken when the reply was decoded, the
    /// monitor's when it was delivered, so an app's two views of one request disagreed. Now they differ by
    /// the delivery alone, which the monitor's name (`deliveryDuration`, added to `duration`).
    func testTheHandlerAndTheMonitorSeeTheSameMetrics() throws {
        let server = try MockServer.echoing(in: self)
        let recorder = EventRecorder()
        let network = layer(server, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(
                NetworkRequest(urlString: "same"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        let handlerMetrics = try XCTUnwrap(result?.value?.metrics)
        let finish = try XCTUnwrap(recorder.events.last?.finished)
        var delivered = handlerMetrics
        delivered.deliveryDuration = finish.metrics.deliveryDuration
        delivered.duration += finish.metrics.deliveryDuration
        XCTAssertEqual(finish.metrics, delivered)
        XCTAssertEqual(finish.result.value?.metrics, handlerMetrics)
    }

    func testDecodingFailureFinishesAfterTheResponseArrived() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.json(raw: #"{"id": "not a number", "text": 1}"#))
        let recorder = EventRecorder()
        let network = layer(server, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: Note.self) { recorder in
            network.get(urlString: "note", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        guard case .decodingFailed(_, let body)? = result?.error else {
            return XCTFail("expected decodingFailed, got \(String(describing: result))")
        }
        let summaries = recorder.summaries
        XCTAssertEqual(Array(summaries.prefix(3)), ["build 1", "start 1", "receive 1 200"])
        XCTAssertEqual(summaries.count, 4, "\(summaries)")
        let finish = try XCTUnwrap(recorder.events.last?.finished)
        guard case .decodingFailed(_, let reported)? = finish.result.error else {
            return XCTFail("expected decodingFailed, got \(finish.result)")
        }
        XCTAssertEqual(reported, body)
        XCTAssertEqual(finish.metrics.bytesReceived, body.count)
        XCTAssertNotNil(finish.metrics.timeToFirstByte)
    }

    /// Also a regression: a cancel during the body made the transport report the response it had cut
    /// off as received, after the monitors had been told the request had finished.
    func testCancelFinishesAsCancelledAndNothingFollowsTheFinish() throws {
        let server = try MockServer.started(in: self)
        // 1 MB, 4 KB every 50 ms: about 13 s in full.
        server.enqueue(MockResponse(body: TestData.bytes(1_048_576)).throttled(bytes: 4_096, every: 0.05))
        server.enqueue(try .json(["after"]))
        let recorder = EventRecorder()
        let network = layer(server, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

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
        let cancelled = try XCTUnwrap(recorder.events.first?.request)

        // Another request through the same session and monitors' queue: by the time it has finished, the
        // cancelled transfer has long been wound up.
        let next = recorder.expectFinishes(1, self)
        let after = outcome(of: [String].self) { recorder in
            network.get(urlString: "next", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        wait(for: [next], timeout: 10)
        XCTAssertEqual(after?.value, ["after"])

        let events = recorder.events(of: cancelled)
        XCTAssertEqual(events.map(\.summary), ["build 1", "start 1", "finish cancelled"])
        let finish = try XCTUnwrap(events.last?.finished)
        XCTAssertEqual(finish.result.error?.isCancelled, true)
        XCTAssertEqual(finish.metrics.attempts, 1)
    }

    /// Regression: a reply whose body stopped coming was reported as received, with an empty body, before
    /// the request timed out.
    func testAReplyCutOffByTheTimeoutIsNotReportedAsReceived() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(body: TestData.bytes(64)).delayed(beforeBody: 30))
        let recorder = EventRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 0.5, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: Data.self) { recorder in
            network.get(urlString: "stall", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(result?.error?.isTimedOut, true, "\(String(describing: result))")
        XCTAssertEqual(recorder.summaries, ["build 1", "start 1", "finish timedOut"])
        let metrics = try XCTUnwrap(recorder.events.last?.finished?.metrics)
        XCTAssertEqual(metrics.bytesReceived, 0)
        XCTAssertNotNil(metrics.timeToFirstByte, "the head did arrive")
    }

    func testRetriedRequestReportsEveryAttemptAndAddsThemUp() throws {
        let server = try MockServer.started(in: self)
        let busy = Data("busy, try again".utf8)
        let final = try JSONEncoder().encode(["done"])
        server.enqueue(contentsOf: [
            MockResponse(status: 503, body: busy), MockResponse(status: 503, body: busy),
            MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: final),
        ])
        let recorder = EventRecorder()
        let network = layer(
            server, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01), monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: NetworkResponse<[String]>.self) { recorder in
            network.send(
                NetworkRequest(urlString: "flaky"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(result?.value?.value, ["done"], "\(String(describing: result))")
        XCTAssertEqual(
            recorder.summaries,
            [
                "build 1", "start 1", "receive 1 503", "retry 1",
                "build 2", "start 2", "receive 2 503", "retry 2",
                "build 3", "start 3", "receive 3 200", "finish 200",
            ])
        let events = recorder.events
        XCTAssertEqual(Set(events.map(\.request)).count, 1)
        let retries = events.compactMap(\.retried)
        XCTAssertEqual(retries.map { $0.error.statusCode }, [503, 503])
        XCTAssertEqual(retries.map { $0.error.responseBody }, [busy, busy])
        XCTAssertLessThanOrEqual(retries[0].delay, 0.01)
        XCTAssertLessThanOrEqual(retries[1].delay, 0.02)
        XCTAssertEqual(events.compactMap(\.received).map(\.body), [busy, busy, final])
        XCTAssertEqual(events.compactMap(\.built).count, 3)

        let metrics = try XCTUnwrap(events.last?.finished?.metrics)
        XCTAssertEqual(metrics.attempts, 3)
        XCTAssertEqual(metrics.bytesReceived, busy.count * 2 + final.count)
        XCTAssertEqual(metrics.bytesSent, 0)
        XCTAssertLessThanOrEqual(try XCTUnwrap(metrics.timeToFirstByte), metrics.duration)
        XCTAssertEqual(result?.value?.metrics?.attempts, 3)
    }

    func testCancelDuringTheWaitBeforeARetryFinishesAsCancelled() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "20"]))
        let retrying = expectation(description: "a retry is decided")
        let recorder = EventRecorder { event in
            if event.retried != nil { retrying.fulfill() }
        }
        let network = layer(server, retryPolicy: RetryPolicy(maximumAttempts: 3), monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        var task: NetworkTask?
        let result = outcome(of: Data.self) { recorder in
            let started = network.get(
                urlString: "later", successHandler: recorder.success, errorHandler: recorder.failure)
            task = started
            return started
        } beforeWaiting: {
            wait(for: [retrying], timeout: 10)
            task?.cancel()
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(result?.error?.isCancelled, true, "\(String(describing: result))")
        XCTAssertEqual(
            recorder.summaries, ["build 1", "start 1", "receive 1 503", "retry 1", "finish cancelled"])
        XCTAssertEqual(recorder.events.compactMap(\.retried).first?.delay, 20)
        let metrics = try XCTUnwrap(recorder.events.last?.finished?.metrics)
        XCTAssertEqual(metrics.attempts, 1)
        XCTAssertLessThan(metrics.duration, 10, "the wait was cut short")
    }

    func testTheBuiltRequestIsTheOneTheInterceptorsAdapted() throws {
        /// Signs each attempt with a fresh token in a header and the query, and asks for one retry after
        /// a 401.
        struct Signer: RequestInterceptor {
            let counter = Counter()

            func adapt(
                _ request: URLRequest,
                completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
            ) {
                let number = counter.next()
                var request = request
                request.setValue("Bearer token-\(number)", forHTTPHeaderField: "Authorization")
                request.url = request.url.flatMap { URL(string: $0.absoluteString + "&sig=\(number)") }
                completion(.success(request))
            }

            func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
                completion(attempt.error.statusCode == 401 && attempt.number == 1 ? .retry : .doNotRetry)
            }
        }
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func next() -> Int {
                lock.withLock {
                    value += 1
                    return value
                }
            }
        }
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [MockResponse(status: 401), try .json(["signed"])])
        let recorder = EventRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, interceptors: [Signer()],
            monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: [String].self) { recorder in
            network.get(
                urlString: "items", query: ["page": "1"], successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(result?.value, ["signed"], "\(String(describing: result))")
        XCTAssertEqual(
            recorder.summaries,
            [
                "build 1", "start 1", "receive 1 401", "retry 1", "build 2", "start 2", "receive 2 200",
                "finish 200",
            ])
        let built = recorder.events.compactMap(\.built)
        XCTAssertEqual(
            built.map { $0.value(forHTTPHeaderField: "Authorization") }, ["Bearer token-1", "Bearer token-2"])
        XCTAssertEqual(
            built.map { $0.url }, [server.url("items?page=1&sig=1"), server.url("items?page=1&sig=2")])
        XCTAssertEqual(
            recorder.events.first?.request.url, server.url("items?page=1"), "as built, before them")
        XCTAssertEqual(server.takeRequest(timeout: 1)?.header("Authorization"), "Bearer token-1")
        XCTAssertEqual(recorder.events.compactMap(\.retried).first?.delay, 0)
    }

    func testRefusedRequestFinishesWithoutBeingBuilt() throws {
        let server = try MockServer.started(in: self)
        let recorder = EventRecorder()
        let network = layer(server, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let result = outcome(of: Data.self) { recorder in
            network.get(
                urlString: "ftp://127.0.0.1/file", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        guard case .invalidURL? = result?.error else {
            return XCTFail("expected invalidURL, got \(String(describing: result))")
        }
        XCTAssertEqual(recorder.events.count, 1, recorder.summaries.joined(separator: ", "))
        let event = try XCTUnwrap(recorder.events.first)
        guard case .invalidURL? = event.finished?.result.error else {
            return XCTFail("expected invalidURL, got \(event.summary)")
        }
        XCTAssertEqual(event.request.method, .get)
        XCTAssertNil(event.request.url)
        XCTAssertEqual(event.finished?.metrics.bytesSent, 0)
        XCTAssertNil(event.finished?.metrics.timeToFirstByte)
        XCTAssertEqual(server.requestCount, 0)
    }
}
