import Foundation
import NetworkLayer

/// A `NetworkLayer` for presenter tests: it sends nothing, answers from what the test stubbed, and
/// records every request exactly as the real layer would have sent it.
///
/// ```swift
/// let network = DummyNetworkLayer()
/// network.successResponse = [Employee(name: "Ann", salary: "1", age: "30")]
/// let presenter = EmployeesPresenter(view: view, networkLayer: network)
/// presenter.load()                                   // the handler has already run
/// XCTAssertEqual(view.shown?.count, 1)
/// XCTAssertEqual(network.callCount(.get, "https://api.example.com/employees"), 1)
/// ```
///
/// **Answers.** A request is answered by the most recently added per-request stub that matches it
/// (see ``stub(_:_:returning:)``), else by ``successResponse`` and ``errorResponse``:
/// - a request expecting a `T` succeeds with ``successResponse`` when its dynamic type is `T`;
///   otherwise its error handler receives ``errorResponse``; when that is `nil` too, it receives a
///   `.custom` error naming the type the caller expected and what was stubbed, because a stub of the
///   wrong type is a bug in the test. So when both are set, a ``successResponse`` of the right type wins.
/// - a request with a `() -> Void` success handler, or one expecting `EmptyResponse` (which the real
///   layer decodes from any reply), fails with ``errorResponse`` when it is set and succeeds
///   otherwise; ``successResponse`` plays no part.
///
/// **Delivery.** The handler runs synchronously, before the request method returns, so a test asserts
/// right after the call. Set ``deliveryQueue`` to deliver asynchronously on a queue instead.
///
/// **Recording.** Every request is built by the real layer's own request builder and appended to
/// ``recordedRequests``: full URL with its query, headers with the default headers merged in, and the
/// body bytes as the real layer encodes them. A request the real layer would refuse to send (invalid
/// URL, unencodable body, invalid header, including an invalid default header) is not recorded there:
/// it goes to ``refusedRequests``, and its error handler receives the same error the real layer gives
/// (`.invalidURL`, `.encodingFailed`, `.invalidHeader`). Recording is thread-safe.
///
/// The dummy creates no `URLSession` of its own and never sends on the shared one.
open class DummyNetworkLayer: NetworkLayer, @unchecked Sendable {
    let state: DummyStateLock

    /// Creates a dummy layer.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings of requests and stubs, by the real layer's rule.
    ///   - defaultHeaders: Merged into every recorded request's headers, as the real layer sends them.
    ///   - encoder: Encodes request bodies for the recordings, as the real layer would.
    ///   - deliveryQueue: `nil` runs handlers synchronously; a queue runs them asynchronously on it.
    public init(
        baseURL: URL? = nil,
        defaultHeaders: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        deliveryQueue: DispatchQueue? = nil
    ) {
        state = DummyStateLock(DummyState(deliveryQueue: deliveryQueue))
        super.init(
            baseURL: baseURL, defaultHeaders: defaultHeaders, encoder: encoder,
            callbackQueue: deliveryQueue ?? .main)
    }

    /// Creates a dummy layer for an API environment: its base URL and headers, as the real layer's
    /// `init(environment:)` uses them.
    public convenience init(environment: APIEnvironment, deliveryQueue: DispatchQueue? = nil) {
        self.init(
            baseURL: environment.baseURL, defaultHeaders: environment.headers, deliveryQueue: deliveryQueue)
    }

    // MARK: - Requests
    //
    // Every request method only describes its request; `answer` does all the work, so a new entry
    // point of `NetworkLayer` needs one more override of a few lines here and nothing else.

    /// Records the GET request and answers it from the stubs, without sending anything.
    ///
    /// The arguments are those of `NetworkLayer.get`; see ``DummyNetworkLayer`` for how it is answered.
    @discardableResult
    open override func get<T: Decodable>(
        urlString: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        successHandler: @escaping (T) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            RequestDescription(method: .get, urlString: urlString, query: query, headers: headers),
            expecting: .value(T.self), successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the POST request, `body` encoded as the real layer would, and answers it with an `R`.
    @discardableResult
    open override func post<T: Encodable, R: Decodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.post, urlString, body, headers), expecting: .value(R.self),
            successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the POST request, `body` encoded as the real layer would, and answers it with success or
    /// an error.
    @discardableResult
    open override func post<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.post, urlString, body, headers), expecting: .nothing, successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// Records the PUT request, `body` encoded as the real layer would, and answers it with an `R`.
    @discardableResult
    open override func put<T: Encodable, R: Decodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.put, urlString, body, headers), expecting: .value(R.self),
            successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the PUT request, `body` encoded as the real layer would, and answers it with success or
    /// an error.
    @discardableResult
    open override func put<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.put, urlString, body, headers), expecting: .nothing, successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// Records the PATCH request, `body` encoded as the real layer would, and answers it with an `R`.
    @discardableResult
    open override func patch<T: Encodable, R: Decodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.patch, urlString, body, headers), expecting: .value(R.self),
            successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the PATCH request, `body` encoded as the real layer would, and answers it with success or
    /// an error.
    @discardableResult
    open override func patch<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            describe(.patch, urlString, body, headers), expecting: .nothing,
            successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the DELETE request and answers it with an `R`.
    @discardableResult
    open override func delete<R: Decodable>(
        urlString: String,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            RequestDescription(method: .delete, urlString: urlString, headers: headers),
            expecting: .value(R.self), successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the DELETE request and answers it with success or an error.
    @discardableResult
    open override func delete(
        urlString: String,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        answer(
            RequestDescription(method: .delete, urlString: urlString, headers: headers),
            expecting: .nothing, successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Records the endpoint and its request, and answers it with a `T`.
    ///
    /// The arguments are those of `NetworkLayer.request`; the endpoint is also appended to
    /// ``recordedEndpoints``.
    @discardableResult
    open override func request<T: Decodable>(
        _ endpoint: any Endpoint,
        successHandler: @escaping (T) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        state.withLock { $0.endpoints.append(endpoint) }
        return answer(
            RequestDescription(endpoint: endpoint), expecting: .value(T.self), successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// Records the endpoint and its request, and answers it with success or an error.
    @discardableResult
    open override func request(
        _ endpoint: any Endpoint,
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        state.withLock { $0.endpoints.append(endpoint) }
        return answer(
            RequestDescription(endpoint: endpoint), expecting: .nothing, successHandler: successHandler,
            errorHandler: errorHandler)
    }

    private func describe<T: Encodable>(
        _ method: HTTPMethod, _ urlString: String, _ body: T, _ headers: [String: String]
    ) -> RequestDescription {
        RequestDescription(method: method, urlString: urlString, headers: headers, body: .json(body))
    }

    /// The one mechanism behind every request method: build the request with the real layer's builder,
    /// record it (or its refusal), pick its answer, deliver that answer.
    private func answer<Value>(
        _ description: RequestDescription,
        expecting expected: DummyExpectation<Value>,
        successHandler: @escaping (Value) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let request: RecordedRequest?
        let result: Result<Value, NetworkError>
        do {
            let recorded = RecordedRequest(try builder.urlRequest(for: description))
            let source = state.withLock { $0.record(recorded) }
            request = recorded
            result = source.result(for: recorded, expecting: expected)
        } catch {
            let refused = RefusedRequest(
                method: description.method, urlString: description.urlString, error: error)
            state.withLock { $0.refused.append(refused) }
            request = nil
            result = .failure(error)
        }
        let task = DummyTask(request: request, errorHandler: errorHandler) { [weak self] in
            guard let self, let request else { return }
            self.state.withLock { $0.cancelled.append(request) }
        }
        task.deliver(result, to: successHandler, on: deliveryQueue)
        return task
    }
}
