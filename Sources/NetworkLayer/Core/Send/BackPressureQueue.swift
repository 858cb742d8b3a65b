import Foundation

/// The session's delegate queue: serial, and on Linux, while a reply that can outrun it arrives (a
/// download, a compressed or long reply), it holds back FoundationNetworking when it falls behind.
///
/// FoundationNetworking hands every chunk of a reply (16 KB) to the delegate queue with
/// `addOperation` from libcurl's thread and goes on reading, so a delegate slower than the network (a
/// download writing to disk) lets chunks pile up: a data task writing 1 GB to a file grew resident memory
/// by 83–138 MB. Here `addOperation` waits while more than ``limit`` operations are queued, which keeps
/// libcurl's thread from reading: the socket fills and the server slows down. That is the back-pressure a
/// data task lacks.
///
/// Only while such a reply arrives (``holdBackPressure()``): small replies never wait. A gzip bomb inflates
/// far faster than the delegate drains it; without the wait, what libcurl read before the size limit's
/// cancel landed grew memory by 175–265 MB. ``Transfer`` cancels such a reply from another queue, so
/// libcurl stays held back until the cancel lands, instead of being let through to meet it.
///
/// FoundationNetworking only ever adds blocks to its delegate queue (`addOperation(_:)` with a closure), so
/// on Linux those blocks run on one serial `DispatchQueue` instead of going through `Operation` objects:
/// an `OperationQueue` locks, allocates and observes each operation, and with three events per request
/// (response, data, completion) that bookkeeping, contended between libcurl's thread and the queue's,
/// cost more context switches per request than the rest of the layer.
///
/// Waiting must never deadlock. Delegate-queue code that calls into URLSession (`cancel()`, `resume()`,
/// creating a task), which waits for libcurl's thread, runs inside ``withoutWaiting(_:)``, which lets a
/// waiting `addOperation` through at once; and as a safety net a wait gives up when the queue makes no
/// progress for ``stallTimeout``.
#if canImport(FoundationNetworking)
    final class BackPressureQueue: OperationQueue, @unchecked Sendable {
        /// Queued operations beyond which `addOperation` waits: 32 chunks, 512 KB of reply.
        static let limit = 32
        /// How long a wait lasts without the queue running anything before it gives up.
        static let stallTimeout: TimeInterval = 0.02

        /// Where every block runs, one at a time, in the order added.
        private let serial = Queues.sessionDelegate()
        /// Marks `serial`: `OperationQueue.current` is `nil` in blocks that don't run as operations.
        private static let marker = DispatchSpecificKey<Bool>()

        /// Whether the caller runs on a session's delegate queue.
        static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }
        // Guarded by `condition`.
        private let condition = NSCondition()
        private var queued = 0
        private var finished = 0
        private var bypasses = 0
        private var holders = 0
        /// Transfers whose consumer is behind (a stream's handler, a download's disk): while any is,
        /// libcurl's thread waits at `addOperation` however short the queue, and without the stall
        /// timeout (the queue itself runs freely).
        private var closedGates = 0

        override init() {
            super.init()
            maxConcurrentOperationCount = 1
            serial.setSpecific(key: Self.marker, value: true)
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            condition.withLock {
                var progressMark = finished
                // Real time, not the layer's clock: this blocks libcurl's own thread, which serves every
                // layer on the session (an exception .ci/clock-check names).
                var deadline = Date(timeIntervalSinceNow: Self.stallTimeout)
                while bypasses == 0, closedGates > 0 || (queued >= Self.limit && holders > 0) {
                    if closedGates > 0 {
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
            serial.async {
                block()
                self.operationFinished()
            }
        }

        /// Adds the layer's own operation (a stop, a deadline sweep), which never waits: only
        /// FoundationNetworking's, from libcurl's thread, are held back. A caller on the callback queue
        /// must never wait for a stream's consumer, which may be that very queue.
        func enqueue(_ block: @escaping @Sendable () -> Void) {
            condition.withLock { queued += 1 }
            serial.async {
                block()
                self.operationFinished()
            }
        }

        /// A transfer's consumer fell behind: libcurl's thread waits until ``openGate()``.
        func closeGate() {
            condition.withLock { closedGates += 1 }
        }

        /// Whether libcurl may be held back now: a reply that can outrun the queue is arriving, or a gate
        /// is closed. A cancel must then not let libcurl past (see ``Transfer/stop(because:)``).
        var isHoldingBack: Bool { condition.withLock { closedGates > 0 || holders > 0 } }

        /// That consumer caught up, or its stream ended.
        func openGate() {
            condition.withLock {
                closedGates -= 1
                condition.broadcast()
            }
        }

        /// A reply that may outrun the delegate started: from now on, until it ends, `addOperation` may wait.
        func holdBackPressure() {
            condition.withLock { holders += 1 }
        }

        /// Such a reply ended.
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

        private func operationFinished() {
            condition.withLock {
                queued -= 1
                finished &+= 1
                condition.broadcast()
            }
        }
    }
#else
    /// On Apple platforms URLSession needs no back-pressure from its delegate queue: a plain serial queue,
    /// with the same interface. The SDK imports `OperationQueue` as unchecked `Sendable`, which a subclass
    /// must restate.
    final class BackPressureQueue: OperationQueue, @unchecked Sendable {
        override init() {
            super.init()
            maxConcurrentOperationCount = 1
            underlyingQueue = Queues.sessionDelegate()
        }

        /// Whether the caller runs on a session's delegate queue.
        static var isCurrent: Bool { OperationQueue.current is BackPressureQueue }

        func holdBackPressure() {}

        func releaseBackPressure() {}

        func withoutWaiting<T>(_ body: () -> T) -> T { body() }

        func enqueue(_ block: @escaping @Sendable () -> Void) {
            addOperation(block)
        }

        func closeGate() {}

        var isHoldingBack: Bool { false }

        func openGate() {}
    }
#endif

extension OperationQueue {
    /// Runs `body`, which calls into URLSession and so waits for libcurl's thread, without a
    /// ``BackPressureQueue`` holding that thread back meanwhile.
    func callingSession<T>(_ body: () -> T) -> T {
        (self as? BackPressureQueue)?.withoutWaiting(body) ?? body()
    }
}

/// Whether the caller runs on a session's delegate queue, where no caller code may run: for tests that
/// check where monitors, decoders and handlers run.
package var isOnSessionDelegateQueue: Bool { BackPressureQueue.isCurrent }
