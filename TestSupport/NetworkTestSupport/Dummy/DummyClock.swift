import Foundation
import NetworkLayer

/// The clock of ``DummyNetworkLayer``: every wait is over at once and no deadline ever passes, so a
/// dummy's answers come when the stubs or the test give them, never by the clock.
///
/// A wait (the retry policy's backoff, a `Retry-After`, a stream's reconnection delay) runs its work in
/// place, where it was asked for: a retried request is answered before the request method returns. A
/// timer (a request's timeout, an interceptor's or a refresh's limit, the total time limit) never fires:
/// a held reply or an interceptor that completes later waits for the test, however long. The readings are
/// the real ones, so metrics and dates look as they would.
final class DummyClock: NetworkClock {
    var now: DispatchTime { .now() }

    var date: Date { Date() }

    func makeTimer(on queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) -> any ClockTimer {
        StoppedTimer()
    }

    @discardableResult
    func run(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any ClockTimer
    {
        work()
        return StoppedTimer()
    }

    /// A timer whose time never comes.
    private final class StoppedTimer: ClockTimer {
        func schedule(at deadline: DispatchTime) {}
        func cancel() {}
    }
}
