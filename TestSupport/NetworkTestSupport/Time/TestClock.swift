import Foundation
import NetworkLayer

/// Time a test moves: hand it to a layer, and every deadline, wait and date the layer keeps runs on it.
///
/// A layer made with a test clock (``DummyNetworkLayer``'s `clock:`, ``StubTransport``'s
/// `makeNetworkLayer(clock:...)`, or `NetworkLayer(clock:baseURL:...)` for a layer talking to a
/// ``MockServer``) reads its time from it: retry backoff and `Retry-After` waits, request, total and
/// idle timeouts, interceptor and refresh limits, a stream's reconnection delay, the progress throttle,
/// and the dates that decide a cached reply's age and freshness and a bearer token's expiry. Nothing
/// happens until the test calls ``advance(by:)-(TimeInterval)``: each timer the advance passes runs at its own
/// deadline, soonest first, on the queue it would have run on, before `advance(by:)` returns.
///
/// ```swift
/// let clock = TestClock()
/// let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 3), clock: clock)
/// network.stub(.get, "/feed", outcomes: [.response(Data(), statusCode: 503, headers: ["Retry-After": "2"]), .success(feed)])
/// presenter.load()             // the first attempt fails; the retry waits for the clock
/// clock.advance(by: 2)         // the retry goes out and its answer is delivered
/// XCTAssertEqual(clock.waits, [2])
/// ```
///
/// libcurl's connect timeout and URLSession's own backstop timeout stay on real time: the layer never
/// sees them. One test clock may drive several layers; advance it from one thread at a time.
public final class TestClock: Sendable {
    let time: VirtualTime

    /// A clock whose date starts at `date` and stands still until the test advances it.
    ///
    /// - Parameter date: The wall-clock reading at the start: what cache ages, `Retry-After` dates and
    ///   token expiry are compared with. A server's `Date` header is real time, so the default is now.
    public init(startingAt date: Date = Date()) {
        time = VirtualTime(start: date)
    }

    /// The wall-clock reading: the start date plus ``elapsed``.
    public var date: Date { time.date }

    /// Seconds the clock has been advanced by in all.
    public var elapsed: TimeInterval { time.elapsed }

    /// Every wait the layers on this clock asked for, in seconds, in the order asked: the backoff before
    /// each retry, a `Retry-After`, a stream's reconnection delay. Deadlines (timeouts) and the progress
    /// throttle are not waits: see ``pendingDeadlines``.
    public var waits: [TimeInterval] { time.waits }

    /// The seconds from now to each armed timer, soonest first: waits and deadlines alike.
    public var pendingDeadlines: [TimeInterval] { time.pendingDeadlines }

    /// Moves the clock on by `seconds`, running each timer it passes at its deadline, soonest first.
    ///
    /// Each timer runs on its queue before this returns (a timer for the main queue, advanced from the
    /// main thread, runs in place), so with a ``DummyNetworkLayer`` a retried request has been answered
    /// and its handler has run when `advance(by:)` returns. Over a real transport the attempt a timer
    /// starts is on its way: wait for its outcome as usual.
    ///
    /// - Parameter seconds: A finite time, zero or more; zero runs the timers already due.
    /// - Returns: How many timers ran.
    @discardableResult
    public func advance(by seconds: TimeInterval) -> Int {
        time.advance(by: seconds)
    }

    /// Advances to each next deadline until no timer is armed, or `limit` timers have run.
    ///
    /// - Parameter limit: The most timers to run: a deadline kept alive by the test would otherwise be
    ///   followed for ever.
    /// - Returns: How many timers ran.
    @discardableResult
    public func advanceUntilIdle(limit: Int = 1000) -> Int {
        time.advanceUntilIdle(limit: limit)
    }

    /// Waits, in real time, until `condition` holds: over a real transport, a failed attempt's retry is
    /// scheduled when its reply arrives, after the call that started it returned.
    ///
    /// ```swift
    /// XCTAssertTrue(clock.wait { $0.waits.count == 1 })
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: The longest real wait, in seconds; it returns as soon as `condition` holds.
    ///   - condition: Checked now, each time a timer is armed on the clock, and every few milliseconds.
    /// - Returns: Whether `condition` held in time.
    @discardableResult
    public func wait(timeout: TimeInterval = 10, until condition: (TestClock) -> Bool) -> Bool {
        time.wait(timeout: timeout) { condition(self) }
    }

    /// Waits, in real time, until `condition` holds, without blocking the caller's actor: the form for
    /// an `async` test, where the code that arms the clock's timers may need the main actor meanwhile.
    ///
    /// - Parameters:
    ///   - timeout: The longest real wait, in seconds; it returns as soon as `condition` holds.
    ///   - condition: Checked now, each time a timer is armed on the clock, and every few milliseconds.
    /// - Returns: Whether `condition` held in time.
    @discardableResult
    public func wait(
        timeout: TimeInterval = 10, until condition: @escaping @Sendable (TestClock) -> Bool
    ) async -> Bool {
        await withCheckedContinuation { continuation in
            // Off the caller's executor: the wait blocks a thread while it lasts.
            Thread.detachNewThread {
                continuation.resume(returning: self.wait(timeout: timeout, until: condition))
            }
        }
    }
}
