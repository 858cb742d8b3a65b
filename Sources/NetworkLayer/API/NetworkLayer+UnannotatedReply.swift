import Foundation

// Why: an untyped `let todos = try await network.get(...)` makes Swift 6.3 fail with "failed to produce
// diagnostic"; these uncallable forms catch such calls so the error says what to write. Only `get`,
// `post` and `delete`, the calls most often written untyped (`.ci/reply-form-check`).
extension NetworkLayer {
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
