import Foundation

/// Delivers a transfer's progress to its handler on the callback queue: at most about 30 calls a second,
/// each reporting more bytes than the one before, and a last call with every byte just before the
/// success handler.
///
/// The transport reports from the delegate queue (or libcurl's thread); the handler runs on the callback
/// queue. At most one delivery is scheduled at a time and each reads the newest figures, so a slow
/// handler never builds a backlog. Calls to the handler are serialised by `deliveryLock`, which keeps
/// them in order on a concurrent callback queue too.
final class ProgressReporter: @unchecked Sendable {
    /// The shortest time between two calls: 1/30 s.
    static let interval: UInt64 = 33_333_333

    private let queue: DispatchQueue
    private let handler: UncheckedSendable<(TransferProgress) -> Void>
    // Guarded by `lock`.
    private let lock = NSLock()
    private var latest: TransferProgress?
    private var scheduled = false
    private var lastDelivery: UInt64 = 0
    private var final: TransferProgress?
    // Guarded by `deliveryLock`, held while the handler runs.
    private let deliveryLock = NSLock()
    private var reported: TransferProgress?
    private var ended = false

    init(queue: DispatchQueue, handler: @escaping (TransferProgress) -> Void) {
        self.queue = queue
        self.handler = UncheckedSendable(value: handler)
    }

    /// New figures from the transport, from any thread. Fewer bytes than already reported (a download
    /// that had to start over) are held back until the count passes the old one again.
    func update(completed: Int64, expected: Int64?) {
        let delay: UInt64? = lock.withLock {
            latest = TransferProgress(completedBytes: completed, expectedBytes: expected)
            guard !scheduled else { return nil }
            scheduled = true
            let now = DispatchTime.now().uptimeNanoseconds
            let since = now - lastDelivery
            return since >= Self.interval ? 0 : Self.interval - since
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { self.deliverLatest() }
    }

    /// The figures the last call reports, once the transport has finished with every byte.
    func complete(completed: Int64, expected: Int64?) {
        lock.withLock { final = TransferProgress(completedBytes: completed, expectedBytes: expected) }
    }

    /// On the callback queue, just before the success handler: reports every byte, unless the last call
    /// already did, and stops further calls.
    func finish() {
        let final = lock.withLock { self.final ?? latest }
        deliveryLock.withLock {
            guard !ended else { return }
            ended = true
            guard let final, final != reported else { return }
            if let reported, reported.completedBytes > final.completedBytes { return }
            self.reported = final
            handler.value(final)
        }
    }

    /// On the callback queue, before the error handler: no calls from now on.
    func end() {
        deliveryLock.withLock { ended = true }
    }

    private func deliverLatest() {
        let progress: TransferProgress? = lock.withLock {
            scheduled = false
            lastDelivery = DispatchTime.now().uptimeNanoseconds
            return latest
        }
        deliveryLock.withLock {
            guard !ended, let progress else { return }
            if let reported {
                guard
                    progress.completedBytes > reported.completedBytes
                        || (progress.completedBytes == reported.completedBytes
                            && progress.expectedBytes != reported.expectedBytes)
                else { return }
            }
            reported = progress
            handler.value(progress)
        }
    }
}
