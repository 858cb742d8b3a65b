/// Carries a value that is not `Sendable` across queues.
///
/// Safe only where the code that uses it guarantees a single owner at a time: the value is handed from
/// queue to queue (in the pipeline: the delegate queue, then possibly a decoding queue, then the
/// callback queue), each hand-off ordered by the dispatch that makes it, and never touched by two
/// queues at once.
/// Handlers are plain closures (not `@Sendable`) so that classic, non-isolated presenters compile in
/// Swift 6; this box is the one place that promise is kept by hand.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(value: Value) {
        self.value = value
    }
}
