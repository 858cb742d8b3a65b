import Foundation

// Why: these forms were removed before 1.0 (a transfer is a `NetworkRequest`, the whole response comes
// from `send`). Without them an app written against the earlier API gets "no exact matches" or "extra
// argument"; with them the error names the replacement. <doc:Migrating> has each before and after;
// `.ci/reply-form-check` type-checks every removed form against these.
extension NetworkLayer {
    // MARK: - Transfers

    /// Removed: send ``NetworkRequest/download(urlString:to:options:headers:)`` with
    /// ``send(_:successHandler:errorHandler:)``; progress goes in the request's
    /// ``NetworkRequest/progressHandler``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/download(urlString:to:options:headers:)``.
    ///   - destination: As in ``NetworkRequest/download(urlString:to:options:headers:)``.
    ///   - options: As in ``NetworkRequest/download(urlString:to:options:headers:)``.
    ///   - headers: As in ``NetworkRequest/download(urlString:to:options:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Receives the file; `send`'s handler receives it as the response's value.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(.download(urlString:to:options:headers:)); a progressHandler is the request's own"
    )
    @discardableResult
    public func download(
        urlString: String, to destination: URL, options: DownloadOptions = [],
        headers: [String: String] = [:],
        progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (URL) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest.download(
            urlString: urlString, to: destination, options: options, headers: headers)
        return sendTransfer(&request, progressHandler, { successHandler($0.value) }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/download(_:to:options:)`` with ``send(_:successHandler:errorHandler:)``;
    /// progress goes in the request's ``NetworkRequest/progressHandler``.
    ///
    /// - Parameters:
    ///   - endpoint: As in ``NetworkRequest/download(_:to:options:)``.
    ///   - destination: As in ``NetworkRequest/download(_:to:options:)``.
    ///   - options: As in ``NetworkRequest/download(_:to:options:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Receives the file; `send`'s handler receives it as the response's value.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(.download(_:to:options:)); a progressHandler is the request's own"
    )
    @discardableResult
    public func download(
        _ endpoint: any Endpoint, to destination: URL, options: DownloadOptions = [],
        progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (URL) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest.download(endpoint, to: destination, options: options)
        return sendTransfer(&request, progressHandler, { successHandler($0.value) }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)`` with
    /// ``send(_:successHandler:errorHandler:)``; progress goes in the request's
    /// ``NetworkRequest/progressHandler``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - fileURL: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - contentType: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Receives the reply decoded; `send`'s handler receives it as the response's value.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<Reply>.upload(urlString:method:fileURL:contentType:headers:))"
    )
    @discardableResult
    public func upload<R: Decodable & SendableMetatype>(
        urlString: String, method: HTTPMethod = .post, fileURL: URL, contentType: String? = nil,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<R>.upload(
            urlString: urlString, method: method, fileURL: fileURL, contentType: contentType, headers: headers
        )
        return sendTransfer(&request, progressHandler, { successHandler($0.value) }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)`` of
    /// ``EmptyResponse`` (any 2xx reply) with ``send(_:successHandler:errorHandler:)``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - fileURL: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - contentType: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:fileURL:contentType:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Runs when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<EmptyResponse>.upload(urlString:method:fileURL:contentType:headers:))"
    )
    @discardableResult
    public func upload(
        urlString: String, method: HTTPMethod = .post, fileURL: URL, contentType: String? = nil,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<EmptyResponse>.upload(
            urlString: urlString, method: method, fileURL: fileURL, contentType: contentType, headers: headers
        )
        return sendTransfer(&request, progressHandler, { _ in successHandler() }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:data:contentType:headers:)`` with
    /// ``send(_:successHandler:errorHandler:)``; progress goes in the request's
    /// ``NetworkRequest/progressHandler``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - data: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - contentType: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Receives the reply decoded; `send`'s handler receives it as the response's value.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<Reply>.upload(urlString:method:data:contentType:headers:))"
    )
    @discardableResult
    public func upload<R: Decodable & SendableMetatype>(
        urlString: String, method: HTTPMethod = .post, data: Data, contentType: String? = nil,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<R>.upload(
            urlString: urlString, method: method, data: data, contentType: contentType, headers: headers)
        return sendTransfer(&request, progressHandler, { successHandler($0.value) }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:data:contentType:headers:)`` of
    /// ``EmptyResponse`` (any 2xx reply) with ``send(_:successHandler:errorHandler:)``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - data: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - contentType: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:data:contentType:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Runs when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<EmptyResponse>.upload(urlString:method:data:contentType:headers:))"
    )
    @discardableResult
    public func upload(
        urlString: String, method: HTTPMethod = .post, data: Data, contentType: String? = nil,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<EmptyResponse>.upload(
            urlString: urlString, method: method, data: data, contentType: contentType, headers: headers)
        return sendTransfer(&request, progressHandler, { _ in successHandler() }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:multipart:headers:)`` with
    /// ``send(_:successHandler:errorHandler:)``; progress goes in the request's
    /// ``NetworkRequest/progressHandler``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - multipart: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Receives the reply decoded; `send`'s handler receives it as the response's value.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<Reply>.upload(urlString:method:multipart:headers:))"
    )
    @discardableResult
    public func upload<R: Decodable & SendableMetatype>(
        urlString: String, method: HTTPMethod = .post, multipart: MultipartFormData,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<R>.upload(
            urlString: urlString, method: method, multipart: multipart, headers: headers)
        return sendTransfer(&request, progressHandler, { successHandler($0.value) }, errorHandler)
    }

    /// Removed: send ``NetworkRequest/upload(urlString:method:multipart:headers:)`` of ``EmptyResponse``
    /// (any 2xx reply) with ``send(_:successHandler:errorHandler:)``.
    ///
    /// - Parameters:
    ///   - urlString: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - method: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - multipart: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - headers: As in ``NetworkRequest/upload(urlString:method:multipart:headers:)``.
    ///   - progressHandler: The request's ``NetworkRequest/progressHandler``.
    ///   - successHandler: Runs when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest<EmptyResponse>.upload(urlString:method:multipart:headers:))"
    )
    @discardableResult
    public func upload(
        urlString: String, method: HTTPMethod = .post, multipart: MultipartFormData,
        headers: [String: String] = [:], progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = NetworkRequest<EmptyResponse>.upload(
            urlString: urlString, method: method, multipart: multipart, headers: headers)
        return sendTransfer(&request, progressHandler, { _ in successHandler() }, errorHandler)
    }

    // MARK: - Whole responses

    /// Removed: ``send(_:successHandler:errorHandler:)`` with `NetworkRequest(endpoint)` gives the whole
    /// response.
    ///
    /// - Parameters:
    ///   - endpoint: The request's description.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(endpoint)) has the whole response"
    )
    @discardableResult
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: any Endpoint,
        successHandler: @escaping (NetworkResponse<T>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(NetworkRequest(endpoint), successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Removed: ``send(_:successHandler:errorHandler:)`` with `NetworkRequest(urlString:query:headers:)` gives
    /// the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters.
    ///   - headers: Headers for this request.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(urlString:)) has the whole response"
    )
    @discardableResult
    public func get<T: Decodable & SendableMetatype>(
        urlString: String, query: [String: String] = [:], headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<T>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(urlString: urlString, query: query, headers: headers),
            successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// Removed: ``send(_:successHandler:errorHandler:)`` with
    /// `NetworkRequest(method: .post, urlString:, body: .json(body))` gives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as JSON.
    ///   - headers: Headers for this request.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(method: .post, urlString:, body: .json(body))) has the whole response"
    )
    @discardableResult
    public func post<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendWhole(.post, urlString, .json(body), headers, successHandler, errorHandler)
    }

    /// Removed: ``send(_:successHandler:errorHandler:)`` with
    /// `NetworkRequest(method: .put, urlString:, body: .json(body))` gives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as JSON.
    ///   - headers: Headers for this request.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(method: .put, urlString:, body: .json(body))) has the whole response"
    )
    @discardableResult
    public func put<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendWhole(.put, urlString, .json(body), headers, successHandler, errorHandler)
    }

    /// Removed: ``send(_:successHandler:errorHandler:)`` with
    /// `NetworkRequest(method: .patch, urlString:, body: .json(body))` gives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as JSON.
    ///   - headers: Headers for this request.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(method: .patch, urlString:, body: .json(body))) has the whole response"
    )
    @discardableResult
    public func patch<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String, body: T, headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendWhole(.patch, urlString, .json(body), headers, successHandler, errorHandler)
    }

    /// Removed: ``send(_:successHandler:errorHandler:)`` with `NetworkRequest(method: .delete, urlString:)`
    /// gives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request.
    ///   - successHandler: Receives the response: its value, status, headers and URL.
    ///   - errorHandler: Receives the failure.
    /// - Returns: The request, which can be cancelled.
    @available(
        *, unavailable,
        message: "send(NetworkRequest(method: .delete, urlString:)) has the whole response"
    )
    @discardableResult
    public func delete<R: Decodable & SendableMetatype>(
        urlString: String, headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendWhole(.delete, urlString, .empty, headers, successHandler, errorHandler)
    }

    private func sendWhole<R: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, _ body: RequestBody, _ headers: [String: String],
        _ successHandler: @escaping (NetworkResponse<R>) -> Void,
        _ errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(method: method, urlString: urlString, headers: headers, body: body),
            successHandler: successHandler, errorHandler: errorHandler)
    }

    private func sendTransfer<Value>(
        _ request: inout NetworkRequest<Value>, _ progressHandler: ((TransferProgress) -> Void)?,
        _ successHandler: @escaping (NetworkResponse<Value>) -> Void,
        _ errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        request.progressHandler = progressHandler
        return send(request, successHandler: successHandler, errorHandler: errorHandler)
    }
}
