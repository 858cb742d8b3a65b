import Foundation

// Why: an untyped `let todos = try await network.get(...)` makes Swift 6.3 fail with "failed to produce
// diagnostic"; these uncallable forms catch such calls so the error says what to write. One for each
// `async` form whose result is generic (`.ci/reply-form-check` type-checks each); the ones with a body
// or an endpoint are also the `Void` forms removed before 1.0 (<doc:Migrating>).
extension NetworkLayer {
    /// Not callable: name the reply's type (`let post: Post = try await network.request(endpoint)`), or call
    /// ``requestIgnoringReply(_:isolation:)`` when any 2xx reply will do.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable, renamed: "requestIgnoringReply(_:isolation:)",
        message: "to decode the reply, name its type: let post: Post = try await network.request(endpoint)"
    )
    public func request(
        _ endpoint: any Endpoint, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await requestIgnoringReply(endpoint, isolation: isolation)
    }

    /// Not callable: name the reply's type, as in `let todos: [Todo] = try await network.get(...)`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable,
        message: "name the reply's type: let todos: [Todo] = try await network.get(...); Data gives the bytes"
    )
    public func get(
        urlString: String, query: [String: String] = [:], headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        _ = try await send(
            NetworkRequest<Data>(urlString: urlString, query: query, headers: headers), isolation: isolation)
    }

    /// Not callable: name the reply's type (`let created: Todo = try await network.post(...)`), or call
    /// ``postIgnoringReply(urlString:body:headers:isolation:)`` when any 2xx reply will do.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``postIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable, renamed: "postIgnoringReply(urlString:body:headers:isolation:)",
        message: "to decode the reply, name its type: let created: Todo = try await network.post(...)"
    )
    public func post<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await postIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Not callable: name the reply's type (`let updated: Todo = try await network.put(...)`), or call
    /// ``putIgnoringReply(urlString:body:headers:isolation:)`` when any 2xx reply will do.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``putIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable, renamed: "putIgnoringReply(urlString:body:headers:isolation:)",
        message: "to decode the reply, name its type: let updated: Todo = try await network.put(...)"
    )
    public func put<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await putIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Not callable: name the reply's type (`let updated: Todo = try await network.patch(...)`), or call
    /// ``patchIgnoringReply(urlString:body:headers:isolation:)`` when any 2xx reply will do.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: Encoded as in ``patchIgnoringReply(urlString:body:headers:isolation:)``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable, renamed: "patchIgnoringReply(urlString:body:headers:isolation:)",
        message: "to decode the reply, name its type: let updated: Todo = try await network.patch(...)"
    )
    public func patch<T: Encodable>(
        urlString: String, body: T, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await patchIgnoringReply(urlString: urlString, body: body, headers: headers, isolation: isolation)
    }

    /// Not callable: name the reply's type (`let removed: Todo = try await network.delete(...)`), or call
    /// ``deleteIgnoringReply(urlString:headers:isolation:)`` when any 2xx reply will do.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - isolation: The caller's actor; leave it out.
    @available(
        *, unavailable, renamed: "deleteIgnoringReply(urlString:headers:isolation:)",
        message: "to decode the reply, name its type: let removed: Todo = try await network.delete(...)"
    )
    public func delete(
        urlString: String, headers: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) {
        try await deleteIgnoringReply(urlString: urlString, headers: headers, isolation: isolation)
    }
}
