import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Where monitors run, in which order, and that a slow one holds up nothing but itself.
final class MonitorQueueTests: XCTestCase {
    func testMonitorsRunOffTheMainQueueTheCallbackQueueAndTheDelegateQueue() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [MockResponse(status: 503), try .json([1]), try .json([2])])
        let recorder = EventRecorder()
        let callbackQueue = QueueMark.makeQueue("monitor-tests.callbacks")
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: callbackQueue,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01), monitors: [recorder])
        let finished = recorder.expectFinishes(3, self)

        for path in ["retried", "plain"] {
            let result = outcome(of: [Int].self, on: callbackQueue, queueName: callbackQueue.label) {
                recorder in
                network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertNotNil(result?.value, "\(String(describing: result))")
        }
        // A refused request reports from the caller's side of the pipeline.
        outcome(of: [Int].self, on: callbackQueue, queueName: callbackQueue.label) { recorder in
            network.get(
                urlString: "ftp://x/", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertTrue(recorder.summaries.contains("retry 1"), "\(recorder.summaries)")
        XCTAssertEqual(recorder.contexts.count, recorder.events.count)
        for (event, context) in zip(recorder.events, recorder.contexts) {
            XCTAssertFalse(context.isMainThread, event.summary)
            XCTAssertNil(context.queueMark, "\(event.summary) ran on \(context.queueMark ?? "")")
            XCTAssertFalse(context.isOnDelegateQueue, event.summary)
        }
    }

    func testEveryMonitorSeesTheSameEventsInTheSameOrder() throws {
        let server = try MockServer.echoing(in: self)
        let recorders = (0..<3).map { _ in EventRecorder() }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, monitors: recorders)
        let count = 12
        let finished = recorders.map { $0.expectFinishes(count, self) }
        let handled = expectation(description: "every handler ran")
        handled.expectedFulfillmentCount = count

        for index in 0..<count {
            // Every third request fails to decode, so successes and failures interleave.
            if index % 3 == 0 {
                network.get(
                    urlString: "n/\(index)", successHandler: { (_: Int) in handled.fulfill() },
                    errorHandler: { _ in handled.fulfill() })
            } else {
                network.get(
                    urlString: "n/\(index)", successHandler: { (_: Echo) in handled.fulfill() },
                    errorHandler: { _ in handled.fulfill() })
            }
        }
        wait(for: [handled] + finished, timeout: 20)

        let reference = recorders[0].events
        XCTAssertEqual(reference.count, count * 4)
        for other in recorders.dropFirst() {
            let events = other.events
            XCTAssertEqual(events.map(\.summary), reference.map(\.summary))
            XCTAssertEqual(events.map(\.request), reference.map(\.request))
        }
        for request in Set(reference.map(\.request)) {
            XCTAssertEqual(
                recorders[0].events(of: request).map(\.summary).dropLast(),
                ["build 1", "start 1", "receive 1 200"], "\(request)")
            XCTAssertTrue(recorders[0].events(of: request).last?.isFinish == true)
        }
    }

    func testAMonitorSleepingInDidFinishDoesNotDelayTheHandlers() throws {
        let server = try MockServer.echoing(in: self)
        let lock = NSLock()
        nonisolated(unsafe) var doneSleeping: [Date] = []
        let slept = expectation(description: "the monitor slept through both finishes")
        slept.expectedFulfillmentCount = 2
        let sleeper = EventRecorder { event in
            guard event.isFinish else { return }
            // real wait: the slow monitor under test, not synchronisation
            Thread.sleep(forTimeInterval: 1)
            lock.withLock { doneSleeping.append(Date()) }
            slept.fulfill()
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, monitors: [sleeper])

        let started = Date()
        var handled: [Date] = []
        for path in ["first", "second"] {
            let result = outcome(of: Echo.self) { recorder in
                network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertNotNil(result?.value)
            handled.append(Date())
        }
        let stillSleeping = lock.withLock { doneSleeping.isEmpty }
        wait(for: [slept], timeout: 10)
        let waited = lock.withLock { doneSleeping }

        XCTAssertTrue(stillSleeping, "both handlers ran while the monitor slept on the first finish")
        XCTAssertLessThan(handled[1].timeIntervalSince(started), 1, "the handlers did not wait for it")
        XCTAssertEqual(waited.count, 2)
        XCTAssertGreaterThan(waited[1].timeIntervalSince(handled[1]), 1, "the monitor finished later")
        XCTAssertEqual(sleeper.summaries.filter { $0 == "finish 200" }.count, 2)
    }

    func testAMonitorStuckInDidReceiveDoesNotStallOtherRequests() throws {
        let server = try MockServer.echoing(in: self)
        let release = DispatchSemaphore(value: 0)
        let stuck = expectation(description: "the monitor is stuck in its first didReceive")
        let once = NSLock()
        nonisolated(unsafe) var blocked = false
        let slow = EventRecorder { event in
            guard event.received != nil else { return }
            let first = once.withLock {
                defer { blocked = true }
                return !blocked
            }
            guard first else { return }
            stuck.fulfill()
            // The slow work under test; bounded, in case the test fails before releasing it.
            _ = release.wait(timeout: .now() + 20)
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, monitors: [slow])
        let finished = slow.expectFinishes(4, self)

        let first = outcome(of: Echo.self) { recorder in
            network.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertNotNil(first?.value)
        wait(for: [stuck], timeout: 10)
        for path in ["b", "c", "d"] {
            let result = outcome(of: Echo.self, timeout: 5) { recorder in
                network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value?.target, "/" + path, "delivered while the monitor was stuck")
        }
        XCTAssertEqual(
            slow.summaries, ["build 1", "start 1", "receive 1 200"], "the rest is queued behind it")
        release.signal()
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(slow.events.count, 16)
        XCTAssertEqual(slow.events.filter(\.isFinish).count, 4)
    }
}
