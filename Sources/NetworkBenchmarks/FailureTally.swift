import Foundation

/// The failed requests of the measurement in progress (timeouts count every request they cover), so each row
/// reports its errors and a run with any fails instead of printing a figure made from fewer requests. Its
/// own lock guards the count: requests fail on the callback queue and the workload thread reads it.
final class FailureTally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ failures: Int) {
        guard failures > 0 else { return }
        lock.withLock { count += failures }
    }

    /// The failures since the last call, and the count back to zero.
    func take() -> Int {
        lock.withLock {
            defer { count = 0 }
            return count
        }
    }

    /// `make`'s rows, each stamped with the failures counted while it ran (rows measured together share
    /// their count).
    func counting(_ make: () -> [Row?]) -> [Row] {
        _ = take()
        let rows = make().compactMap { $0 }
        let failures = take()
        return rows.map {
            var row = $0
            row.errors = failures
            return row
        }
    }
}
