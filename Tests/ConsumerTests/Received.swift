import NetworkLayer

/// What a request's handlers received, for tests with the synchronous dummy (handlers run on the test's
/// thread, before the request method returns).
final class Received<Value> {
    private(set) var values: [Value] = []
    private(set) var errors: [NetworkError] = []

    var success: (Value) -> Void { { self.values.append($0) } }
    var failure: (NetworkError) -> Void { { self.errors.append($0) } }
}

extension Received where Value == Void {
    /// The success handler of the `() -> Void` forms.
    var done: () -> Void { { self.values.append(()) } }
}
