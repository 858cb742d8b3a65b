import Foundation

/// Runs `count` requests with at most `inFlight` outstanding, and times them.
///
/// All bookkeeping happens on the callback queue, where completions arrive, so it needs no lock; the
/// calling thread only waits. (Never call it from the callback queue.)
final class LoadRunner: @unchecked Sendable {
    private let queue: DispatchQueue
    private let start: (@escaping (Bool) -> Void) -> Void
    private let count: Int
    private var issued = 0
    private var completed = 0
    private var failures = 0
    private let done = DispatchSemaphore(value: 0)

    private init(count: Int, queue: DispatchQueue, start: @escaping (@escaping (Bool) -> Void) -> Void) {
        self.count = count
        self.queue = queue
        self.start = start
    }

    /// - Returns: The elapsed seconds and the number of failed requests, or `nil` on timeout.
    static func run(
        count: Int, inFlight: Int, on queue: DispatchQueue, timeout: TimeInterval = 600,
        start: @escaping (@escaping (Bool) -> Void) -> Void
    ) -> (seconds: Double, failures: Int)? {
        let runner = LoadRunner(count: count, queue: queue, start: start)
        let began = DispatchTime.now()
        queue.async {
            for _ in 0..<min(inFlight, count) { runner.issue() }
        }
        guard runner.done.wait(timeout: .now() + timeout) == .success else { return nil }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
        return (seconds, runner.failures)
    }

    private func issue() {
        issued += 1
        start { ok in
            self.completed += 1
            if !ok { self.failures += 1 }
            if self.issued < self.count {
                self.issue()
            } else if self.completed == self.count {
                self.done.signal()
            }
        }
    }
}
