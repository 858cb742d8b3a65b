import Foundation

// The `async` forms that ignore the reply used to share their names with the forms that decode it, told
// apart by the result's type alone, so `let created = try await network.post(...)` without a type
// compiled and dropped the reply. They are now named `…IgnoringReply`; these shims keep old callers
// compiling, with a warning and a fix-it, and make the accidental unannotated form a warning too.
extension NetworkLayer {
    /// Sends an endpoint's request and ignores the reply.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    @available(*, deprecated, renamed: "requestIgnoringReply(_:isolation:)")
    public func request(
        _ endpoint: any Endpoint, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await requestIgnoringReply(endpoint, isolation: isolation)
    }

    /// Sends `body` in a POST request and ignores the reply.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``postIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    @available(*, deprecated, renamed: "postIgnoringReply(urlString:body:headers:isolation:)")
    public func post<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await postIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Sends `body` in a PUT request and ignores the reply.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``putIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    @available(*, deprecated, renamed: "putIgnoringReply(urlString:body:headers:isolation:)")
    public func put<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await putIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Sends `body` in a PATCH request and ignores the reply.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``patchIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    @available(*, deprecated, renamed: "patchIgnoringReply(urlString:body:headers:isolation:)")
    public func patch<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await patchIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Sends a DELETE request and ignores the reply.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    @available(*, deprecated, renamed: "deleteIgnoringReply(urlString:headers:isolation:)")
    public func delete(
        urlString: String, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await deleteIgnoringReply(urlString: urlString, headers: headers, isolation: isolation)
    }
}
