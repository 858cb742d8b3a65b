/// Carries a non-`Sendable` value across queues, safe only with one owner at a time: in the pipeline it
/// is handed from the delegate queue to a decoding queue to the callback queue, each hand-off ordered by
/// its dispatch. Why: handlers are plain closures so non-isolated presenters compile in Swift 6; this is
/// the one place that promise is kept by hand.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(value: Value) {
        self.value = value
    }
}
