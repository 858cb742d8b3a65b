import Foundation
import NetworkLayer

/// Where the answer to one request of ``DummyNetworkLayer`` comes from, and the rules that turn it into
/// the result a handler receives.
enum DummySource {
    /// A per-request stub matched: its description and the outcome it gave (`nil`: it has none).
    case stub(String, DummyOutcome?)
    /// No stub matched: the seed-style `successResponse` and `errorResponse`, and the stubs there are.
    case layerWide(successResponse: Any?, errorResponse: NetworkError?, stubs: [String])

    /// The answer to `request`, as a server's reply (and the value itself) for the layer's pipeline to
    /// validate, decode and deliver.
    ///
    /// Precedence: a matching stub decides alone. Otherwise a request expecting a value takes
    /// `successResponse` when it has the expected type, else `errorResponse`, else a `.custom` error
    /// saying what was expected and what was stubbed; a `() -> Void` (or `EmptyResponse`) request fails
    /// with `errorResponse` when it is set and succeeds otherwise.
    func answer<Value>(
        for request: RecordedRequest, expecting expected: DummyExpectation<Value>
    ) -> Result<InProcessReply, NetworkError> {
        switch self {
        case .stub(let stub, nil):
            return .failure(expected.mismatch(request, "the stub \(stub) was given no outcomes"))
        case .stub(let stub, let outcome?):
            return outcome.answer(for: request, expecting: expected, "the stub \(stub) returned")
        case .layerWide(let successResponse, let errorResponse, let stubs):
            if let value = expected.valueWhenUnstubbed {
                return errorResponse.map { .failure($0) } ?? .success(expected.reply(value: value))
            }
            if let successResponse, let typed = expected.cast(successResponse) {
                return .success(expected.reply(value: typed, body: successResponse as? Data ?? Data()))
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

extension DummyOutcome {
    /// The reply this outcome gives `request`; a value of another type than the expected one fails it
    /// with a `.custom` error that says `mismatch` (where the value came from) and names both types.
    func answer<Value>(
        for request: RecordedRequest, expecting expected: DummyExpectation<Value>, _ mismatch: String
    ) -> Result<InProcessReply, NetworkError> {
        let (value, statusCode, headers, cacheStatus): (Any, Int, [String: String], CacheStatus)
        switch self {
        case .failure(let error):
            return .failure(error)
        case .success(let answer):
            (value, statusCode, headers, cacheStatus) = (answer, 200, [:], .network)
        case .response(let answer, let status, let fields):
            (value, statusCode, headers, cacheStatus) = (answer, status, fields, .network)
        case .cached(let answer, let cached, let status, let fields):
            (value, statusCode, headers, cacheStatus) = (answer, status, fields, cached)
        }
        return expected.reply(request, value, statusCode, headers) {
            expected.mismatch(request, mismatch, value)
        }.map { reply in
            var reply = reply
            reply.cacheStatus = cacheStatus
            return reply
        }
    }
}

/// What a request's success handler takes, and how a stubbed value becomes the reply that gives it.
struct DummyExpectation<Value> {
    /// The type the success handler takes.
    let type: Any.Type
    /// The stubbed value as `Value`, or `nil` when it has another type.
    let cast: (Any) -> Value?
    /// Why stubbed bytes that `cast` refused fail the request; `nil` makes them a body for the layer to
    /// decode, as any reply's body. A download's bytes are written to its file by `cast`, or fail.
    var dataFailure: NetworkError?
    /// What a request succeeds with when no stub matched and no `errorResponse` is set: `EmptyResponse()`
    /// for a `() -> Void` or `EmptyResponse` handler; `nil` for a typed one, which needs a
    /// `successResponse` of its type.
    let valueWhenUnstubbed: Value?
    /// The statuses that are success, as the request says; `nil` accepts `200..<300`.
    var acceptableStatusCodes: Set<Int>? = nil
    /// The media types the request accepts; a stub that names no `Content-Type` answers in the first.
    var acceptableContentTypes: [String]? = nil

    /// A request whose reply becomes a `Value`. `EmptyResponse` (which the `() -> Void` forms ask for)
    /// takes any stubbed value, as the real layer takes any 2xx reply.
    static func value(_ type: Value.Type, from request: NetworkRequest<Value>) -> DummyExpectation<Value> {
        var expectation: DummyExpectation
        if case .download(let target)? = request.transfer {
            expectation = .download(type, to: target.destination)
        } else if let empty = EmptyResponse() as? Value {
            expectation = DummyExpectation(type: type, cast: { _ in empty }, valueWhenUnstubbed: empty)
        } else {
            expectation = DummyExpectation(type: type, cast: { $0 as? Value }, valueWhenUnstubbed: nil)
        }
        expectation.acceptableStatusCodes = request.acceptableStatusCodes
        expectation.acceptableContentTypes = request.acceptableContentTypes
        return expectation
    }

    /// Whether `statusCode` is a success for the request.
    func accepts(_ statusCode: Int) -> Bool {
        acceptableStatusCodes?.contains(statusCode) ?? (200..<300).contains(statusCode)
    }

    /// The reply a stubbed `value` gives: the value itself when it has the expected type, else `Data` as
    /// the body the layer decodes, else the `mismatch` error. A status the request doesn't accept is
    /// answered as it is, whatever the value, and the layer fails it as it fails any such reply.
    func reply(
        _ request: RecordedRequest, _ value: Any, _ statusCode: Int, _ headers: [String: String],
        mismatch: () -> NetworkError
    ) -> Result<InProcessReply, NetworkError> {
        let data = value as? Data ?? Data()
        guard accepts(statusCode) else {
            return .success(reply(value: nil, body: data, statusCode: statusCode, headers: headers))
        }
        if let typed = cast(value) {
            return .success(reply(value: typed, body: data, statusCode: statusCode, headers: headers))
        }
        guard let bytes = value as? Data else { return .failure(mismatch()) }
        if let dataFailure { return .failure(dataFailure) }
        return .success(reply(value: nil, body: bytes, statusCode: statusCode, headers: headers))
    }

    /// A reply carrying `value` (or `body` to decode), in the type the request accepts unless `headers`
    /// name one.
    func reply(
        value: Value?, body: Data = Data(), statusCode: Int = 200, headers: [String: String] = [:]
    ) -> InProcessReply {
        var headers = headers
        if let accepted = acceptableContentTypes?.first,
            !headers.keys.contains(where: { $0.lowercased() == "content-type" })
        {
            headers["Content-Type"] = Self.concrete(accepted)
        }
        return InProcessReply(statusCode: statusCode, headers: headers, body: body, value: value)
    }

    /// A media type a reply can have that `pattern` accepts: `image/*` gives `image/octet-stream`.
    private static func concrete(_ pattern: String) -> String {
        pattern == "*/*"
            ? "application/octet-stream" : pattern.replacingOccurrences(of: "/*", with: "/octet-stream")
    }

    /// The `.custom` error for a request that cannot succeed with what was stubbed: it names the type
    /// the caller expected and, when there is one, the type of the stubbed value, module-qualified when
    /// their short names would read the same. A request expecting `Data` with a typed value stubbed is
    /// most often an `Outbox`'s item, which is sent as raw bytes: the message says so.
    func mismatch(
        _ request: RecordedRequest, _ reason: String, _ stubbed: Any? = nil, _ suffix: String = ""
    ) -> NetworkError {
        var expectedName = String(describing: type)
        var found = ""
        var hint = ""
        if let stubbed {
            if type == Data.self {
                hint =
                    " An Outbox's items (and any Data request) take the reply's bytes: stub Data, such as "
                    + "JSONEncoder().encode(value) or a fixture's."
            }
            let stubbedType = Swift.type(of: stubbed)
            var stubbedName = String(describing: stubbedType)
            if stubbedName == expectedName {
                expectedName = String(reflecting: type)
                stubbedName = String(reflecting: stubbedType)
            }
            found = " \(stubbedName)"
        }
        return .custom(
            "DummyNetworkLayer: \(request) expects \(expectedName), but \(reason)\(found)\(suffix).\(hint)")
    }
}
