/// Tells a test double when a stream's `async` consumer has handled every element handed to it, so a
/// test that pushed an event can assert on the result.
package protocol StreamConsumerIdling: Sendable {
    /// Runs `body` once the consumer has taken every element so far and waits, or has stopped; at once
    /// if it already has. Runs with no lock held, on the consumer's thread or the caller's.
    func whenIdle(_ body: @escaping @Sendable () -> Void)
}
