import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate queue: serial and, on Linux, the back-pressure a data task lacks. While a reply
/// that can outrun it arrives (``holdBackPressure()``), `addOperation` from libcurl's thread waits past
/// ``limit`` queued chunks, so the socket fills and the server slows. Blocks run on a `DispatchQueue`,
/// not as `Operation`s. Why both, with figures: <doc:DesignNotes>.
/// Never deadlocks: code that calls into URLSession runs in ``withoutWaiting(_:)``, and a wait gives
/// up after ``stallTimeout`` without progress. Which of the two (a compile-time fact, as Apple's suspends a
/// task, which FoundationNetworking can't do mid-reply without corrupting it): see ``PlatformFacts``.
///
/// On Apple platforms URLSession needs no back-pressure: the same interface over a plain serial queue, which
/// pauses a reply by suspending its task. One declaration, the members that differ in `#if` branches.
final class BackPressureQueue: OperationQueue, @unchecked Sendable {
    /// Where every block runs: `run(_:)` sends it there on Linux, and it is the `underlyingQueue` on Apple
    /// platforms. Held here, not only by `underlyingQueue`: Apple's holds it strongly, FoundationNetworking's
    /// `unowned(unsafe)`, so there it would be freed at once and every operation run on a dangling queue.
    private let serial = Queues.sessionDelegate()

    #if canImport(FoundationNetworking) && !NETWORKLAYER_APPLE_BRANCHES
        /// Queued operations beyond which `addOperation` waits: 32 chunks, 512 KB of reply.
        static let limit = 32
        static let stallTimeout: TimeInterval = 0.02

        // Guarded by `condition`.
        private let condition = NSCondition()
        private var queued = 0
        private var finished = 0
        private var bypasses = 0
        private var holders = 0
        /// Transfers whose consumer is behind: while any is, libcurl's thread waits however short the queue,
        /// without the stall timeout.
        private var pausedReads = 0
    #endif

    override init() {
        super.init()
        maxConcurrentOperationCount = 1
        #if !canImport(FoundationNetworking) || NETWORKLAYER_APPLE_BRANCHES
            underlyingQueue = serial
        #endif
    }

    #if canImport(FoundationNetworking) && !NETWORKLAYER_APPLE_BRANCHES
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            condition.withLock {
                var progressMark = finished
                // Real time, not the layer's clock: this blocks libcurl's own thread, which serves every
                // layer on the session (an exception .ci/clock-check names).
                var deadline = Date(timeIntervalSinceNow: Self.stallTimeout)
                while bypasses == 0, pausedReads > 0 || (queued >= Self.limit && holders > 0) {
                    if pausedReads > 0 {
                        condition.wait()
                        continue
                    }
                    if !condition.wait(until: deadline) {
                        guard finished != progressMark else { break }
                        progressMark = finished
                        deadline = Date(timeIntervalSinceNow: Self.stallTimeout)
                    }
                }
                queued += 1
            }
            run(block)
        }

        /// Adds the layer's own operation (a stop, a sweep), which never waits: a caller on the callback queue
        /// must never wait for a stream's consumer, which may be that very queue.
        func enqueue(_ block: @escaping @Sendable () -> Void) {
            condition.withLock { queued += 1 }
            run(block)
        }

        /// Stops reading `task` while its consumer (a stream's handler, a download's disk) is behind. Linux
        /// can't suspend a data task mid-reply (resuming re-sends it), so libcurl's thread waits here until
        /// ``resumeReading(_:)``, holding back the session's other transfers too; Apple platforms suspend it.
        func pauseReading(_ task: URLSessionTask) {
            condition.withLock { pausedReads += 1 }
        }

        /// Whether libcurl may be held back now: a reply that can outrun the queue is arriving, or reading is
        /// paused. A cancel must then not let libcurl past (see ``Transfer/stop(because:)``).
        var isHoldingBack: Bool { condition.withLock { pausedReads > 0 || holders > 0 } }

        /// `task` is `nil` once it has ended.
        func resumeReading(_ task: URLSessionTask?) {
            condition.withLock {
                pausedReads -= 1
                condition.broadcast()
            }
        }

        /// A reply that may outrun the delegate started: until it ends, `addOperation` may wait.
        func holdBackPressure() {
            condition.withLock { holders += 1 }
        }

        func releaseBackPressure() {
            condition.withLock {
                holders -= 1
                condition.broadcast()
            }
        }

        /// Runs `body`, which waits for libcurl's thread, letting any waiting `addOperation` through.
        func withoutWaiting<T>(_ body: () -> T) -> T {
            condition.withLock {
                bypasses += 1
                condition.broadcast()
            }
            defer { condition.withLock { bypasses -= 1 } }
            return body()
        }

        private func run(_ block: @escaping @Sendable () -> Void) {
            serial.async {
                block()
                self.condition.withLock {
                    self.queued -= 1
                    self.finished &+= 1
                    self.condition.broadcast()
                }
            }
        }
    #else
        func holdBackPressure() {}

        func releaseBackPressure() {}

        func withoutWaiting<T>(_ body: () -> T) -> T { body() }

        func enqueue(_ block: @escaping @Sendable () -> Void) {
            addOperation(block)
        }

        func pauseReading(_ task: URLSessionTask) { task.suspend() }

        var isHoldingBack: Bool { false }

        func resumeReading(_ task: URLSessionTask?) { task?.resume() }
    #endif
}

/// For tests that check no caller code (monitors, decoders, handlers) runs on a session's delegate queue.
package var isOnSessionDelegateQueue: Bool { Queues.isSessionDelegate }
