import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thread-safe count that a test can wait on (bounded), for points in the pipeline nothing announces.
final class Tally: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    func increment() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the count reaches `target`; `false` when `timeout` passed first.
    @discardableResult
    func wait(for target: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while count < target {
            if !condition.wait(until: deadline) { return count >= target }
        }
        return true
    }
}

/// A thread-safe list a test reads after the fact.
final class Log<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    var all: [Element] { lock.withLock { elements } }

    func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }
}

/// Arrival times the server's handler recorded, for measuring the client's waits between attempts.
final class Arrivals: @unchecked Sendable {
    private let log = Log<Date>()

    func record() { log.append(Date()) }

    var times: [Date] { log.all }

    /// Seconds between consecutive arrivals.
    var gaps: [TimeInterval] {
        let times = times
        return zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }
    }
}

/// Counts adapt and retry calls and notes whether each ran on the main thread; changes nothing.
///
/// It signals *after* calling its completion: when it sits before other interceptors, whatever they do
/// synchronously in their own hook (join a refresh, schedule a wait) has happened by then.
struct SpyInterceptor: RequestInterceptor {
    let adapts = Tally()
    let retries = Tally()
    let onMainThread = Log<Bool>()
    let sentAuthorizations = Log<String?>()

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        onMainThread.append(Thread.isMainThread)
        sentAuthorizations.append(request.value(forHTTPHeaderField: "Authorization"))
        completion(.success(request))
        adapts.increment()
    }

    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        onMainThread.append(Thread.isMainThread)
        completion(.doNotRetry)
        retries.increment()
    }
}

/// Holds the first `count` requests in `adapt` until all of them got there, then lets them go together:
/// after an authenticator, it makes sure all of them go out with the same token before any reply comes
/// back. Later attempts pass straight through.
final class Barrier: RequestInterceptor, @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var held: [(URLRequest, @Sendable (Result<URLRequest, NetworkError>) -> Void)] = []
    private var released = false

    init(count: Int) {
        self.count = count
    }

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        let release: [(URLRequest, @Sendable (Result<URLRequest, NetworkError>) -> Void)]? = lock.withLock {
            if released { return [(request, completion)] }
            held.append((request, completion))
            guard held.count == count else { return nil }
            released = true
            defer { held = [] }
            return held
        }
        for (request, completion) in release ?? [] { completion(.success(request)) }
    }
}

/// A refresh that counts its calls and answers with what `answer` says for each call (numbered from 1),
/// from a background queue.
final class CountingRefresh: @unchecked Sendable {
    let calls = Tally()
    private let answer: @Sendable (Int) -> Result<String, NetworkError>
    private let before: @Sendable (Int) -> Void

    /// - Parameters:
    ///   - before: Runs on the background queue before the answer, e.g. to hold the refresh open.
    init(
        before: @escaping @Sendable (Int) -> Void = { _ in },
        answer: @escaping @Sendable (Int) -> Result<String, NetworkError> = { _ in .success("new") }
    ) {
        self.before = before
        self.answer = answer
    }

    func refresh(_ completion: @escaping (Result<String, NetworkError>) -> Void) {
        calls.increment()
        let number = calls.value
        let done = UncheckedBox(completion)
        DispatchQueue.global().async { [before, answer] in
            before(number)
            done.value(answer(number))
        }
    }
}

/// Carries a non-Sendable completion to the queue that calls it once.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What a token-checking server answers: 200 with the request's path for `Bearer new`, 401 otherwise.
enum TokenServer {
    static func handler(
        accepting token: String = "new", before: @escaping @Sendable (MockServerRequest) -> Void = { _ in }
    ) -> MockServer.Handler {
        { request in
            before(request)
            guard request.header("Authorization") == "Bearer \(token)" else {
                return MockResponse(
                    status: 401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""],
                    text: "expired")
            }
            return try .json([request.path])
        }
    }
}

extension MockServer {
    /// The `Authorization` header of every recorded request, in arrival order.
    var authorizations: [String?] { recordedRequests.map { $0.header("Authorization") } }
}

extension XCTestCase {
    /// Starts `count` requests at once from the main queue and waits for all of them; checks each got
    /// exactly one handler call, never inside the call that started it, on the main queue.
    func outcomes<Value>(
        of type: Value.Type = Value.self, count: Int, timeout: TimeInterval = 10,
        file: StaticString = #filePath, line: UInt = #line,
        _ start: (Int, OutcomeRecorder<Value>) -> NetworkTask
    ) -> [Result<Value, NetworkError>] {
        QueueMark.mark(.main, as: "main")
        let recorders = (0..<count).map { _ in OutcomeRecorder<Value>(expectation(description: "answered")) }
        for (index, recorder) in recorders.enumerated() {
            _ = start(index, recorder)
            recorder.markReturned()
        }
        wait(for: recorders.map(\.expectation), timeout: timeout)
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: timeout)
        for (index, recorder) in recorders.enumerated() {
            XCTAssertEqual(
                recorder.results.count, 1, "handler calls of request \(index)", file: file, line: line)
            XCTAssertFalse(recorder.calledBeforeReturn, "request \(index)", file: file, line: line)
            XCTAssertEqual(recorder.queues, ["main"], "request \(index)", file: file, line: line)
        }
        return recorders.compactMap(\.results.first)
    }
}
