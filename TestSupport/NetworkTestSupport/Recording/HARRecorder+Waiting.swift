import Foundation

extension HARRecorder {
    /// Waits until the recorder holds at least `count` entries, at most `timeout` seconds; returns
    /// whether it does. For XCTest's synchronous tests: it blocks the calling thread.
    ///
    /// - Parameters:
    ///   - count: How many entries to wait for.
    ///   - timeout: The longest wait, in seconds.
    @discardableResult
    public func waitForEntries(_ count: Int, timeout: TimeInterval = 5) -> Bool {
        let arrived = DispatchSemaphore(value: 0)
        let id = addWaiter(for: count) { _ in arrived.signal() }
        guard let id else { return true }
        if arrived.wait(timeout: .now() + timeout) == .timedOut {
            // Resumed in the meantime or not, the count decides.
            _ = removeWaiter(id)
        }
        return archive.entries.count >= count
    }

    /// Waits until the recorder holds at least `count` entries, at most `timeout` seconds, without
    /// blocking a thread; returns whether it does.
    ///
    /// - Parameters:
    ///   - count: How many entries to wait for.
    ///   - timeout: The longest wait, in seconds.
    @discardableResult
    public func waitForEntries(_ count: Int, timeout: TimeInterval = 5) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = addWaiter(for: count) { continuation.resume(returning: $0) }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                removeWaiter(id)?.resume(false)
            }
        }
    }
}
