/// Everything a caller said about one request, before anything is built from it.
///
/// Every entry point (`get`, `post`, endpoints, ...) becomes one of these, so one pipeline serves them all.
struct RequestDescription {
    var method: HTTPMethod
    /// An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    var urlString: String
    var query: [String: String] = [:]
    var headers: [String: String] = [:]
    var body: RequestBody = .empty
    /// Overrides the layer's timeout when set.
    var timeout: Double? = nil
}
