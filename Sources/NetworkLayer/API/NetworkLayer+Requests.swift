import Foundation

// The convenience request methods, each in its handler and `async` form. Each only builds a
// `NetworkRequest` and sends it through the general form, ``send(_:successHandler:errorHandler:)`` or
// ``send(_:isolation:)``, so an override of the first answers them all.
//
// Why the `async` forms that ignore the reply have their own names (`postIgnoringReply`): told apart by
// result type alone, an unannotated `let x = try await network.post(...)` would quietly pick the form
// that drops the reply.
extension NetworkLayer {
    // MARK: - Endpoints

    /// Sends an endpoint's request and decodes the JSON reply as `T`.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: any Endpoint,
        successHandler: @escaping (T) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(NetworkRequest(endpoint), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends an endpoint's request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func request(
        _ endpoint: any Endpoint,
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(NetworkRequest(endpoint), value: successHandler, errorHandler: errorHandler)
    }

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

    /// Sends a GET request and decodes the JSON reply as `T` (`Data` gives the raw bytes).
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func get<T: Decodable & SendableMetatype>(
        urlString: String, query: [String: String] = [:], headers: [String: String] = [:],
        successHandler: @escaping (T) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(urlString: urlString, query: query, headers: headers), value: successHandler,
            errorHandler: errorHandler)
    }

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
    // The POST forms say what each does; PUT and PATCH do the same with their method.

    /// Sends `body` in a POST request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func post<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.post, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends `body` in a POST request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func post<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.post, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

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
        _ = try await send(bodyRequest(.post, urlString, body, headers) as EmptyRequest, isolation: isolation)
    }

    /// Sends `body` in a PUT request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func put<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.put, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends `body` in a PUT request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func put<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.put, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends `body` in a PUT request and returns the JSON reply decoded as `R`.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
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
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func putIgnoringReply<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        _ = try await send(bodyRequest(.put, urlString, body, headers) as EmptyRequest, isolation: isolation)
    }

    /// Sends `body` in a PATCH request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func patch<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.patch, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends `body` in a PATCH request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func patch<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(bodyRequest(.patch, urlString, body, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends `body` in a PATCH request and returns the JSON reply decoded as `R`.
    ///
    /// - Parameters:
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
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
    ///   - urlString: The URL, as for POST.
    ///   - body: The body, as for POST.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func patchIgnoringReply<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        _ = try await send(
            bodyRequest(.patch, urlString, body, headers) as EmptyRequest, isolation: isolation)
    }

    // MARK: - DELETE

    /// Sends a DELETE request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func delete<R: Decodable & SendableMetatype>(
        urlString: String, headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(deleteRequest(urlString, headers), value: successHandler, errorHandler: errorHandler)
    }

    /// Sends a DELETE request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func delete(
        urlString: String, headers: [String: String] = [:],
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(deleteRequest(urlString, headers), value: successHandler, errorHandler: errorHandler)
    }

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
        try await send(deleteRequest(urlString, headers), isolation: isolation).value
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
        _ = try await send(deleteRequest(urlString, headers) as EmptyRequest, isolation: isolation)
    }

    // MARK: - The requests they stand for

    private typealias EmptyRequest = NetworkRequest<EmptyResponse>

    private func bodyRequest<T: Encodable, R: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, _ body: T, _ headers: [String: String]
    ) -> NetworkRequest<R> {
        NetworkRequest(method: method, urlString: urlString, headers: headers, body: .json(body))
    }

    private func deleteRequest<R: Decodable & SendableMetatype>(
        _ urlString: String, _ headers: [String: String]
    ) -> NetworkRequest<R> {
        NetworkRequest(method: .delete, urlString: urlString, headers: headers)
    }

    private func send<R>(
        _ request: NetworkRequest<R>, value successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(request, successHandler: { successHandler($0.value) }, errorHandler: errorHandler)
    }

    private func send(
        _ request: EmptyRequest, value successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(request, successHandler: { _ in successHandler() }, errorHandler: errorHandler)
    }
}
