/// Everything a caller said about one request, before anything is built from it.
///
/// Every entry point (`get`, `post`, endpoints, ...) becomes one of these, so one pipeline serves them all.
package struct RequestDescription {
    package var method: HTTPMethod
    /// An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    package var urlString: String
    package var query: [String: String] = [:]
    package var headers: [String: String] = [:]
    package var body: RequestBody = .empty
    /// Overrides the layer's timeout when set.
    package var timeout: Double? = nil
    /// Overrides the layer's maximum response size when set.
    package var maximumResponseSize: Int? = nil
    /// Set for endpoints: `urlString` must be a path below the base URL, never an absolute URL.
    package var requiresPath = false

    package init(
        method: HTTPMethod, urlString: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: RequestBody = .empty, timeout: Double? = nil, maximumResponseSize: Int? = nil,
        requiresPath: Bool = false
    ) {
        self.maximumResponseSize = maximumResponseSize
        self.method = method
        self.urlString = urlString
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.requiresPath = requiresPath
    }
}
