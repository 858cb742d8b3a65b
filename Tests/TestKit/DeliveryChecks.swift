import Foundation
import NetworkLayer
import XCTest

// Checks of the delivery contract shared by the test targets: exactly one handler, exactly once, on the
// right queue, never inside the call that started the request.

/// Marks queues so a handler can tell which one it runs on. (`DispatchQueue.main === .main` is false on
/// Linux, and under `dispatchMain()` the main queue may run off the main thread.)
public enum QueueMark {
    public static let key = DispatchSpecificKey<String>()

    public static func mark(_ queue: DispatchQueue, as name: String) {
        queue.setSpecific(key: key, value: name)
    }

    public static var current: String? { DispatchQueue.getSpecific(key: key) }

    /// A serial queue marked with its own label, for layers that deliver off the main queue.
    public static func makeQueue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        mark(queue, as: label)
        return queue
    }
}

/// Everything one request's handlers did.
public final class OutcomeRecorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedResults: [Result<Value, NetworkError>] = []
    private var storedQueues: [String?] = []
    private var storedReturned = false
    private var storedCalledBeforeReturn = false
    public let expectation: XCTestExpectation

    public init(_ expectation: XCTestExpectation) {
        self.expectation = expectation
        expectation.assertForOverFulfill = false
    }

    public var results: [Result<Value, NetworkError>] { lock.withLock { storedResults } }
    public var queues: [String?] { lock.withLock { storedQueues } }
    public var calledBeforeReturn: Bool { lock.withLock { storedCalledBeforeReturn } }

    public func markReturned() {
        lock.withLock { storedReturned = true }
    }

    public func record(_ result: Result<Value, NetworkError>) {
        lock.withLock {
            if !storedReturned { storedCalledBeforeReturn = true }
            storedResults.append(result)
            storedQueues.append(QueueMark.current)
        }
        expectation.fulfill()
    }

    public var success: (Value) -> Void { { self.record(.success($0)) } }
    public var failure: (NetworkError) -> Void { { self.record(.failure($0)) } }
}

extension OutcomeRecorder where Value == Void {
    /// The success handler of the `() -> Void` request forms.
    public var done: () -> Void { { self.record(.success(())) } }
}

extension XCTestCase {
    /// Starts a request, waits for its outcome and checks the delivery contract: exactly one handler,
    /// exactly once, on the queue marked `queueName`, never inside the call that started the request.
    @discardableResult
    public func outcome<Value>(
        of type: Value.Type = Value.self,
        on callbackQueue: DispatchQueue = .main,
        queueName: String = "main",
        timeout: TimeInterval = 10,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ start: (OutcomeRecorder<Value>) -> NetworkTask,
        beforeWaiting: () -> Void = {}
    ) -> Result<Value, NetworkError>? {
        QueueMark.mark(.main, as: "main")
        let recorder = OutcomeRecorder<Value>(expectation(description: "a handler runs"))
        _ = start(recorder)
        recorder.markReturned()
        beforeWaiting()
        wait(for: [recorder.expectation], timeout: timeout)
        // Let whatever is already queued behind the delivery run, so that a second delivery is seen.
        let drained = expectation(description: "callback queue drained")
        callbackQueue.async { drained.fulfill() }
        wait(for: [drained], timeout: timeout)
        XCTAssertEqual(recorder.results.count, 1, "handlers called", file: file, line: line)
        if callbackQueue.label == DispatchQueue.main.label {
            // On another queue a handler may run before the request method returns; on the caller's
            // own queue it must not: that would mean it ran synchronously inside the request method.
            XCTAssertFalse(
                recorder.calledBeforeReturn, "a handler ran inside the request method", file: file, line: line
            )
        }
        XCTAssertEqual(
            recorder.queues.first ?? nil, queueName, "delivered on the wrong queue", file: file, line: line)
        return recorder.results.first
    }
}

extension Result {
    public var value: Success? { try? get() }
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension NetworkError {
    /// The URLError code of ``transport(_:)``; otherwise `nil`.
    public var transportCode: URLError.Code? {
        if case .transport(let error) = self { return error.code }
        return nil
    }

    /// The headers of ``unacceptableStatusCode(_:body:headers:)``, names lowercased.
    public var responseHeaders: [String: String] {
        guard case .unacceptableStatusCode(_, _, let headers) = self else { return [:] }
        return Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    public var isTimedOut: Bool {
        if case .timedOut = self { return true }
        return false
    }

    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    public var isEmptyResponse: Bool {
        if case .emptyResponse = self { return true }
        return false
    }
}
