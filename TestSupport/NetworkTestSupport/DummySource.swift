import NetworkLayer

/// Where the answer to one request of ``DummyNetworkLayer`` comes from, and the rules that turn it into
/// the result a handler receives.
enum DummySource {
    /// A per-request stub matched: its description and the outcome it gave (`nil`: it has none).
    case stub(String, DummyOutcome?)
    /// No stub matched: the seed-style `successResponse` and `errorResponse`, and the stubs there are.
    case layerWide(successResponse: Any?, errorResponse: NetworkError?, stubs: [String])

    /// The result for `request`.
    ///
    /// Precedence: a matching stub decides alone. Otherwise a request expecting a value takes
    /// `successResponse` when it has the expected type, else `errorResponse`, else a `.custom` error
    /// saying what was expected and what was stubbed; a `() -> Void` (or `EmptyResponse`) request fails
    /// with `errorResponse` when it is set and succeeds otherwise.
    func result<Value>(
        for request: RecordedRequest, expecting expected: DummyExpectation<Value>
    ) -> Result<Value, NetworkError> {
        switch self {
        case .stub(let stub, nil):
            return .failure(expected.mismatch(request, "the stub \(stub) was given no outcomes"))
        case .stub(_, .failure(let error)?):
            return .failure(error)
        case .stub(let stub, .success(let value)?):
            if let typed = expected.cast(value) { return .success(typed) }
            return .failure(expected.mismatch(request, "the stub \(stub) returned", value))
        case .layerWide(let successResponse, let errorResponse, let stubs):
            if let value = expected.valueWhenUnstubbed {
                return errorResponse.map { .failure($0) } ?? .success(value)
            }
            if let successResponse, let typed = expected.cast(successResponse) { return .success(typed) }
            if let errorResponse { return .failure(errorResponse) }
            let listed = stubs.isEmpty ? "" : ". Stubs: \(stubs.joined(separator: "; "))"
            guard let successResponse else {
                let nothing = "nothing was stubbed for it (successResponse and errorResponse are nil"
                return .failure(expected.mismatch(request, "\(nothing) and no stub matches)\(listed)"))
            }
            return .failure(expected.mismatch(request, "successResponse is", successResponse, listed))
        }
    }
}

/// What a request's success handler takes, and how a stubbed value becomes it.
struct DummyExpectation<Value> {
    /// The type the success handler takes.
    let type: Any.Type
    /// The stubbed value as `Value`, or `nil` when it has another type.
    let cast: (Any) -> Value?
    /// What a request succeeds with when no stub matched and no `errorResponse` is set: `()` for a
    /// `() -> Void` handler; `nil` for a typed one, which needs a `successResponse` of its type.
    let valueWhenUnstubbed: Value?

    /// A request whose success handler takes a `Value`. `EmptyResponse` is taken like `() -> Void`, as
    /// the real layer decodes it from any reply: any stubbed value gives `EmptyResponse()`.
    static func value(_ type: Value.Type) -> DummyExpectation<Value> {
        if let empty = EmptyResponse() as? Value {
            return DummyExpectation(type: type, cast: { _ in empty }, valueWhenUnstubbed: empty)
        }
        return DummyExpectation(type: type, cast: { $0 as? Value }, valueWhenUnstubbed: nil)
    }

    /// The `.custom` error for a request that cannot succeed with what was stubbed: it names the type
    /// the caller expected and, when there is one, the type of the stubbed value, module-qualified when
    /// their short names would read the same.
    func mismatch(
        _ request: RecordedRequest, _ reason: String, _ stubbed: Any? = nil, _ suffix: String = ""
    ) -> NetworkError {
        var expectedName = String(describing: type)
        var found = ""
        if let stubbed {
            let stubbedType = Swift.type(of: stubbed)
            var stubbedName = String(describing: stubbedType)
            if stubbedName == expectedName {
                expectedName = String(reflecting: type)
                stubbedName = String(reflecting: stubbedType)
            }
            found = " \(stubbedName)"
        }
        return .custom(
            "DummyNetworkLayer: \(request) expects \(expectedName), but \(reason)\(found)\(suffix).")
    }
}

extension DummyExpectation where Value == Void {
    /// A request whose success handler takes nothing: any stubbed value is success.
    static var nothing: DummyExpectation<Void> {
        DummyExpectation(type: Void.self, cast: { _ in () }, valueWhenUnstubbed: ())
    }
}
