import Foundation
import NetworkLayer
import XCTest

/// Marks queues so a handler can tell which one it runs on (never `Thread.isMainThread`: under
/// `dispatchMain()` the main queue may run off the main thread).
enum QueueMark {
    static let key = DispatchSpecificKey<String>()

    static func mark(_ queue: DispatchQueue, as name: String) {
        queue.setSpecific(key: key, value: name)
    }

    static var current: String? { DispatchQueue.getSpecific(key: key) }
}

/// Everything one request's handlers did.
final class OutcomeRecorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var results: [Result<Value, NetworkError>] = []
    private(set) var queues: [String?] = []
    var returned = false
    private(set) var calledBeforeReturn = false
    let expectation: XCTestExpectation

    init(_ expectation: XCTestExpectation) {
        self.expectation = expectation
        expectation.assertForOverFulfill = false
    }

    func record(_ result: Result<Value, NetworkError>) {
        lock.withLock {
            if !returned { calledBeforeReturn = true }
            results.append(result)
            queues.append(QueueMark.current)
        }
        expectation.fulfill()
    }

    var success: (Value) -> Void { { self.record(.success($0)) } }
    var failure: (NetworkError) -> Void { { self.record(.failure($0)) } }
}

extension XCTestCase {
    /// Starts a request, waits for its outcome, and checks the delivery contract: exactly one handler,
    /// exactly once, on `queueName`, never before the request method returned.
    @discardableResult
    func outcome<Value>(
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
        recorder.returned = true
        beforeWaiting()
        wait(for: [recorder.expectation], timeout: timeout)
        // Let anything already queued behind the delivery run, so a second delivery would be seen.
        let drained = expectation(description: "callback queue drained")
        callbackQueue.async { drained.fulfill() }
        wait(for: [drained], timeout: timeout)
        XCTAssertEqual(recorder.results.count, 1, "handlers called", file: file, line: line)
        if callbackQueue.label == DispatchQueue.main.label {
            // On another queue a handler may finish before the caller's method returns; on the caller's own
            // queue it must not: that would mean it ran synchronously inside the request method.
            XCTAssertFalse(
                recorder.calledBeforeReturn, "a handler ran inside the request method", file: file, line: line
            )
        }
        XCTAssertEqual(
            recorder.queues.first ?? nil, queueName, "delivered on the wrong queue", file: file, line: line)
        return recorder.results.first
    }
}

/// The sample model the tests send and receive.
struct Employee: Codable, Equatable, Sendable {
    var name: String
    var salary: String
    var age: String
}

extension Result {
    var value: Success? { try? get() }
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension OutcomeRecorder where Value == Void {
    /// The success handler for the `() -> Void` request forms.
    var done: () -> Void { { self.record(.success(())) } }
}
