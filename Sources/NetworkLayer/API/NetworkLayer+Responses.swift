import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The forms whose success handler receives the whole `NetworkResponse`: status, headers, URL and body
// beside the value. Like every request method they only build a `NetworkRequest` and call `send`, so
// overriding `send` sees them too.
extension NetworkLayer {
    /// Sends an endpoint's request; the success handler receives the decoded reply with its status,
    /// headers and URL.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: any Endpoint,
        successHandler: @escaping (NetworkResponse<T>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(NetworkRequest(endpoint), successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Sends a GET request; the success handler receives the decoded reply with its status, headers
    /// and URL.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func get<T: Decodable & SendableMetatype>(
        urlString: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<T>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(urlString: urlString, query: query, headers: headers),
            successHandler: successHandler,
            errorHandler: errorHandler)
    }

    // MARK: - POST, PUT, PATCH

    /// Sends `body` in a POST request; the success handler receives the decoded reply with its status,
    /// headers and URL.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded with ``encoder`` as `application/json`; `Data` is sent as its bytes, labelled
    ///     with your `Content-Type` header or `application/octet-stream`.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func post<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.post, urlString, body, headers, successHandler, errorHandler)
    }

    /// Sends `body` in a PUT request; the success handler receives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded with ``encoder`` as `application/json`; `Data` is sent as its bytes, labelled
    ///     with your `Content-Type` header or `application/octet-stream`.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func put<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.put, urlString, body, headers, successHandler, errorHandler)
    }

    /// Sends `body` in a PATCH request; the success handler receives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded with ``encoder`` as `application/json`; `Data` is sent as its bytes, labelled
    ///     with your `Content-Type` header or `application/octet-stream`.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func patch<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.patch, urlString, body, headers, successHandler, errorHandler)
    }

    /// Sends a DELETE request; the success handler receives the whole response.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply with its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func delete<R: Decodable & SendableMetatype>(
        urlString: String,
        headers: [String: String] = [:],
        successHandler: @escaping (NetworkResponse<R>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(method: .delete, urlString: urlString, headers: headers),
            successHandler: successHandler,
            errorHandler: errorHandler)
    }
}
