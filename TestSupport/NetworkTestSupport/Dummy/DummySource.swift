import Foundation
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
    ) -> Result<NetworkResponse<Value>, NetworkError> {
        switch self {
        case .stub(let stub, nil):
            return .failure(expected.mismatch(request, "the stub \(stub) was given no outcomes"))
        case .stub(_, .failure(let error)?):
            return .failure(error)
        case .stub(let stub, .success(let value)?):
            return expected.response(request, value, 200, [:]) {
                expected.mismatch(request, "the stub \(stub) returned", value)
            }
        case .stub(let stub, .response(let value, let statusCode, let headers)?):
            return expected.response(request, value, statusCode, headers) {
                expected.mismatch(request, "the stub \(stub) returned", value)
            }
        case .stub(let stub, .cached(let value, let cacheStatus)?):
            return expected.response(request, value, 200, [:]) {
                expected.mismatch(request, "the stub \(stub) returned", value)
            }.map { response in
                var response = response
                response.cacheStatus = cacheStatus
                return response
            }
        case .layerWide(let successResponse, let errorResponse, let stubs):
            if let value = expected.valueWhenUnstubbed {
                return errorResponse.map { .failure($0) }
                    ?? .success(NetworkResponse(value: value, url: request.url))
            }
            if let successResponse, let typed = expected.cast(successResponse) {
                let data = successResponse as? Data ?? Data()
                return .success(NetworkResponse(value: typed, url: request.url, data: data))
            }
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
    /// Stubbed bytes decoded as the real layer decodes a reply's body into `Value`.
    let decode: (Data) throws(NetworkError) -> Value
    /// What a request succeeds with when no stub matched and no `errorResponse` is set: `EmptyResponse()`
    /// for a `() -> Void` or `EmptyResponse` handler; `nil` for a typed one, which needs a
    /// `successResponse` of its type.
    let valueWhenUnstubbed: Value?
    /// The statuses that are success, as the request says; `nil` accepts `200..<300`.
    var acceptableStatusCodes: Set<Int>? = nil

    /// A request whose reply becomes a `Value`. `EmptyResponse` (which the `() -> Void` forms ask for)
    /// takes any stubbed value, as the real layer takes any 2xx reply.
    static func value(
        _ type: Value.Type, from request: NetworkRequest<Value>, decoder: JSONDecoder
    ) -> DummyExpectation<Value> {
        if case .download(let target)? = request.transfer { return .download(type, to: target.destination) }
        let decode = { (data: Data) throws(NetworkError) -> Value in
            try request.value(from: data, decoder: decoder)
        }
        var expectation =
            if let empty = EmptyResponse() as? Value {
                DummyExpectation(type: type, cast: { _ in empty }, decode: decode, valueWhenUnstubbed: empty)
            } else {
                DummyExpectation(type: type, cast: { $0 as? Value }, decode: decode, valueWhenUnstubbed: nil)
            }
        expectation.acceptableStatusCodes = request.acceptableStatusCodes
        return expectation
    }

    /// The response a stubbed `value` gives: the value itself when it has the expected type, else
    /// `Data` decoded as the real layer would, else the `mismatch` error.
    func response(
        _ request: RecordedRequest, _ value: Any, _ statusCode: Int, _ headers: [String: String],
        mismatch: () -> NetworkError
    ) -> Result<NetworkResponse<Value>, NetworkError> {
        let data = value as? Data ?? Data()
        // As the real layer: a status outside 2xx (or outside what the request accepts) is an error,
        // whatever the stubbed value.
        guard acceptableStatusCodes?.contains(statusCode) ?? (200..<300).contains(statusCode) else {
            return .failure(
                .unacceptableStatusCode(statusCode, body: data, headers: ResponseHeaders(headers)))
        }
        let respond = { (typed: Value) in
            NetworkResponse(
                value: typed, statusCode: statusCode, headers: ResponseHeaders(headers), url: request.url,
                data: data)
        }
        if let typed = cast(value) { return .success(respond(typed)) }
        guard let bytes = value as? Data else { return .failure(mismatch()) }
        do {
            return .success(respond(try decode(bytes)))
        } catch {
            return .failure(error)
        }
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
