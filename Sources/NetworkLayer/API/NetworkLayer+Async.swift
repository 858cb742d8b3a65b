import Foundation

// The `async` forms; they go through `send`, so a subclass that overrides it answers them too.
// Why `isolation: isolated (any Actor)? = #isolation`: the method runs on the caller's actor, so a
// request (not `Sendable`) kept in a property can be passed and a non-`Sendable` reply can come back.
extension NetworkLayer {
    /// Sends `request` through ``send(_:successHandler:errorHandler:)`` and returns its reply.
    ///
    /// ```swift
    /// let response = try await network.send(NetworkRequest<[Item]>(urlString: "items"))
    /// let total = response.headers["X-Total-Count"]
    /// ```
    ///
    /// Cancelling the Swift `Task` cancels the request and throws ``NetworkError/cancelled``; a task
    /// cancelled before the call sends nothing. The call returns as soon as the outcome is settled, not
    /// via ``callbackQueue`` (so a busy queue doesn't delay it), except that a transfer with a
    /// ``NetworkRequest/progressHandler`` returns after its last progress call.
    ///
    /// Downloads and uploads are requests too:
    ///
    /// ```swift
    /// let file = try await network.send(NetworkRequest.download(urlString: "report.pdf", to: destination)).value
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send, and what the reply becomes.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The decoded reply, with its status, headers and URL.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func send<Value>(
        _ request: NetworkRequest<Value>, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> NetworkResponse<Value> {
        let bridge = AsyncBridge<Value>()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { continuation in
                bridge.start(request, on: self, continuation: continuation)
            }
        } onCancel: {
            bridge.cancel()
        }
        return try outcome.value.get()
    }

    // MARK: - Endpoints

    /// Sends an endpoint's request and returns the JSON reply decoded as `T`.
    ///
    /// ```swift
    /// let posts: [Post] = try await network.request(PostsAPI.list(page: 2))
    /// ```
    ///
    /// Cancellation is that of ``send(_:isolation:)``.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: any Endpoint, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> T {
        try await send(NetworkRequest(endpoint), isolation: isolation).value
    }

    /// Sends an endpoint's request; any 2xx reply, with or without a body, is success, the reply ignored.
    ///
    /// ```swift
    /// try await network.requestIgnoringReply(PostsAPI.delete(id: "42"))
    /// ```
    ///
    /// The name keeps an unannotated `let post = try await network.request(endpoint)` from becoming this.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func requestIgnoringReply(
        _ endpoint: any Endpoint, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        _ = try await send(NetworkRequest<EmptyResponse>(endpoint), isolation: isolation)
    }

    // MARK: - GET

    /// Sends a GET request and returns the JSON reply decoded as `T` (`Data` gives the raw bytes).
    ///
    /// ```swift
    /// let employees: [Employee] = try await network.get(urlString: "employees", query: ["page": "2"])
    /// ```
    ///
    /// The arguments are those of the handler form; cancellation is that of ``send(_:isolation:)``.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func get<T: Decodable & SendableMetatype>(
        urlString: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> T {
        try await send(
            NetworkRequest(urlString: urlString, query: query, headers: headers), isolation: isolation
        ).value
    }

    // MARK: - POST, PUT, PATCH
    //
    // Why two names (`post`, `postIgnoringReply`): told apart by result type alone, an unannotated
    // `let x = try await network.post(...)` would quietly pick the form that drops the reply.

    /// Sends `body` in a POST request and returns the JSON reply decoded as `R`.
    ///
    /// ```swift
    /// let created: Employee = try await network.post(urlString: "employees", body: newEmployee)
    /// ```
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func post<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> R {
        try await send(bodyRequest(.post, urlString, body, headers), isolation: isolation).value
    }

    /// Sends `body` in a POST request; any 2xx reply, with or without a body, is success, the reply ignored.
    ///
    /// ```swift
    /// try await network.postIgnoringReply(urlString: "employees", body: newEmployee)
    /// ```
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func postIgnoringReply<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        let request: NetworkRequest<EmptyResponse> = bodyRequest(.post, urlString, body, headers)
        _ = try await send(request, isolation: isolation)
    }

    /// Sends `body` in a PUT request and returns the JSON reply decoded as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func put<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> R {
        try await send(bodyRequest(.put, urlString, body, headers), isolation: isolation).value
    }

    /// Sends `body` in a PUT request; any 2xx reply, with or without a body, is success, the reply ignored.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func putIgnoringReply<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        let request: NetworkRequest<EmptyResponse> = bodyRequest(.put, urlString, body, headers)
        _ = try await send(request, isolation: isolation)
    }

    /// Sends `body` in a PATCH request and returns the JSON reply decoded as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func patch<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> R {
        try await send(bodyRequest(.patch, urlString, body, headers), isolation: isolation).value
    }

    /// Sends `body` in a PATCH request; any 2xx reply, with or without a body, is success, the reply ignored.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func patchIgnoringReply<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        let request: NetworkRequest<EmptyResponse> = bodyRequest(.patch, urlString, body, headers)
        _ = try await send(request, isolation: isolation)
    }

    // MARK: - DELETE

    /// Sends a DELETE request and returns the JSON reply decoded as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The reply, decoded.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func delete<R: Decodable & SendableMetatype>(
        urlString: String, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> R {
        try await send(
            NetworkRequest(method: .delete, urlString: urlString, headers: headers), isolation: isolation
        ).value
    }

    /// Sends a DELETE request; any 2xx reply, with or without a body, is success, the reply ignored.
    ///
    /// ```swift
    /// try await network.deleteIgnoringReply(urlString: "employees/42")
    /// ```
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func deleteIgnoringReply(
        urlString: String, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        _ = try await send(
            NetworkRequest<EmptyResponse>(method: .delete, urlString: urlString, headers: headers),
            isolation: isolation)
    }

    /// The request a body-carrying method stands for.
    private func bodyRequest<T: Encodable, R: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, _ body: T, _ headers: [String: String]
    ) -> NetworkRequest<R> {
        NetworkRequest(method: method, urlString: urlString, headers: headers, body: .json(body))
    }
}
