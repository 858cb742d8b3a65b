/// What a test double learns of the `async` consumer of a stream (the request's `streamConsumer`): when
/// it has handled every element handed to it, so a test that pushed an event can assert on what the
/// consumer made of it.
package protocol StreamConsumerIdling: Sendable {
    /// Runs `body` once the consumer has taken every element appended so far and asks for the next, or
    /// has stopped iterating (the stream ended, failed or was cancelled); at once when it already has.
    /// `body` runs with no lock held, on the consumer's thread or the caller's.
    func whenIdle(_ body: @escaping @Sendable () -> Void)
}
