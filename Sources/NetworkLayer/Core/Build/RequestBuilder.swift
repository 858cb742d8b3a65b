import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the `URLRequest` a ``NetworkRequest`` stands for; shared with `NetworkTestSupport` so test
/// doubles record exactly what the layer would send.
package struct RequestBuilder: Sendable {
    package let resolver: URLResolver
    /// The default headers as fields, sorted once, so `accept` and `Accept` in one dictionary resolve the
    /// same way every time; and without those on the credential list, for a URL outside their origin.
    private let defaultFields: [(name: String, value: String)]
    private let defaultFieldsWithoutCredentials: [(name: String, value: String)]
    /// Why every request fails with it: the layer's init can neither throw nor stop the app.
    private let defaultHeadersError: NetworkError?
    private let credentialScope: DefaultCredentialScope?
    package let encoder: JSONEncoder
    package let timeout: TimeInterval

    package func urlRequest<Value>(for description: NetworkRequest<Value>) throws(NetworkError) -> URLRequest
    {
        if let defaultHeadersError { throw defaultHeadersError }
        let headers = Self.sorted(description.headers)
        if let error = Self.invalidHeaderError(in: headers) { throw error }
        let url = try url(for: description)
        // Most requests carry no body: they don't reach the encoder.
        let body: (data: Data, contentType: String)? =
            if case .empty = description.body { nil } else { try description.body.encoded(with: encoder) }
        if let body, !Self.isValidValue(body.contentType) { throw .invalidHeader("Content-Type") }
        let upload = try description.transfer?.checked()
        if body != nil || upload != nil, let refusal = Self.bodyRefusal(for: description.method.rawValue) {
            throw refusal
        }
        var request = URLRequest(url: url)
        // A new request's method is GET already. Why not set it anyway: FoundationNetworking's setter
        // compares it case-insensitively against every method it knows, a measurable share of a small GET.
        if description.method != .get { request.httpMethod = description.method.rawValue }
        request.timeoutInterval = Self.usable(description.timeout, or: timeout)
        // Later fields win (names are case-insensitive): Accept, defaults, Content-Type, request headers.
        var fields = [
            (name: "Accept", value: description.transfer?.isDownload == true ? "*/*" : "application/json")
        ]
        fields += credentialScope?.allows(url) == false ? defaultFieldsWithoutCredentials : defaultFields
        if let body {
            // Why: without it FoundationNetworking sends application/x-www-form-urlencoded.
            fields.append((name: "Content-Type", value: body.contentType))
            // Why not uploadTask(from:): a URLProtocol on Linux sees no body from an upload task.
            request.httpBody = body.data
        }
        if let upload {
            guard Self.isValidValue(upload.contentType) else { throw .invalidHeader("Content-Type") }
            fields.append((name: "Content-Type", value: upload.contentType))
            fields.append((name: "Content-Length", value: String(upload.length)))
        }
        fields += headers.map { (name: $0.key, value: $0.value) }
        // Why: libcurl sends a declared length with whatever body there is, so a mismatch corrupts the
        // connection or hangs the server.
        let length = body.map { Int64($0.data.count) } ?? upload?.length ?? 0
        if let declared = fields.last(where: { Self.isContentLength($0.name) }),
            Int64(declared.value.trimmingCharacters(in: .whitespaces)) != length
        {
            throw Self.contentLengthMismatch
        }
        request.setHeaderFields(fields)
        return request
    }

    private static let contentLengthMismatch = NetworkError.invalidRequest(
        "The request's Content-Length does not match its body.")

    private static func isContentLength(_ name: String) -> Bool {
        name.utf8.count == 14 && name.lowercased() == "content-length"
    }

    /// Test doubles match stubs with it.
    package func url<Value>(for request: NetworkRequest<Value>) throws(NetworkError) -> URL {
        // Most requests have no query: nothing to encode.
        let query =
            request.query.isEmpty && request.queryItems.isEmpty
            ? "" : PercentEncoding.query(request.query, request.queryItems)
        return try resolver.url(for: request.urlString, query: query, requiringPath: request.endpoint != nil)
    }

    /// - Parameter credentialHeaders: The layer's credential header names.
    init(
        resolver: URLResolver, defaultHeaders: [String: String],
        credentialHeaders: CredentialHeaderNames = CredentialHeaderNames(), encoder: JSONEncoder,
        timeout: TimeInterval
    ) {
        self.resolver = resolver
        let sorted = Self.sorted(defaultHeaders)
        defaultHeadersError = Self.invalidHeaderError(in: sorted)
        defaultFields = sorted.map { (name: $0.key, value: $0.value) }
        defaultFieldsWithoutCredentials = defaultFields.filter { !credentialHeaders.contains($0.name) }
        credentialScope =
            defaultFieldsWithoutCredentials.count < defaultFields.count
            ? DefaultCredentialScope(baseURL: resolver.baseURL) : nil
        self.encoder = encoder
        self.timeout = timeout
    }

    /// Makes `url`'s origin the one the default credential headers go to, unless they have one (see
    /// ``NetworkLayer/adoptCredentialOrigin(of:)``).
    func adoptCredentialOrigin(of url: URL) {
        _ = credentialScope?.allows(url)
    }

    /// Checks a request an interceptor changed as the builder checks its own (headers, method, `http(s)`
    /// URL, body on GET/HEAD, `Content-Length`), and replaces a timeout FoundationNetworking can't convert.
    /// A URL left as `built` had it is not parsed again.
    func checked(_ request: URLRequest, built: URLRequest) -> Result<URLRequest, NetworkError> {
        let headers = (request.allHTTPHeaderFields ?? [:]).map { (key: $0.key, value: $0.value) }
        if let error = Self.invalidHeaderError(in: headers) { return .failure(error) }
        let method = request.httpMethod ?? "GET"
        guard Self.isValidName(method) else {
            return .failure(.invalidRequest("The request method \(Redaction.quoted(method)) is not valid."))
        }
        guard let url = request.url, url == built.url || Origin(url) != nil else {
            return .failure(.invalidURL(request.url?.absoluteString ?? ""))
        }
        let bodyLength = request.httpBody?.count ?? 0
        if bodyLength > 0 || request.httpBodyStream != nil, let refusal = Self.bodyRefusal(for: method) {
            return .failure(refusal)
        }
        // Without bytes in hand, against what the builder declared: an upload's stream is attached later.
        if let declared = request.value(forHTTPHeaderField: "Content-Length") {
            let length = Int(declared.trimmingCharacters(in: .whitespaces))
            let matches =
                request.httpBody.map { length == $0.count }
                ?? (declared == built.value(forHTTPHeaderField: "Content-Length") || length == 0)
            if !matches { return .failure(Self.contentLengthMismatch) }
        }
        let usableTimeout = Self.usable(request.timeoutInterval, or: timeout)
        // Changing a URLRequest copies it whole (NaN != NaN, so NaN is replaced).
        guard usableTimeout != request.timeoutInterval else { return .success(request) }
        var request = request
        request.timeoutInterval = usableTimeout
        return .success(request)
    }

    /// Why: FoundationNetworking sends a GET's body as an unexpected chunked upload, and drops a HEAD's.
    private static func bodyRefusal(for method: String) -> NetworkError? {
        let method = method.uppercased()
        return ["GET", "HEAD"].contains(method)
            ? .invalidRequest("A \(method) request cannot carry a body.") : nil
    }

    private static func sorted(_ headers: [String: String]) -> [(key: String, value: String)] {
        headers.count < 2 ? Array(headers) : headers.sorted { $0.key < $1.key }
    }

    private static func invalidHeaderError(in headers: [(key: String, value: String)]) -> NetworkError? {
        headers.first { !isValidName($0.key) || !isValidValue($0.value) }.map { .invalidHeader($0.key) }
    }

    /// An RFC 9110 token. Why: FoundationNetworking passes a CR or LF in a name onto the wire.
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && tokenBytes.containsAll(name)
    }

    /// Anything but CR, LF and NUL, and not blanks alone: libcurl silently drops such a header (an
    /// `Authorization` lost, the call still succeeding), and NUL ends the C string. Checked on bytes, since
    /// `"\r\n"` is one `Character`.
    private static func isValidValue(_ value: String) -> Bool {
        let bytes = value.utf8
        let blanksAlone = !bytes.isEmpty && bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
        return !blanksAlone && !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// RFC 9110's `tchar`.
    private static let tokenBytes = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~")

    /// Why: FoundationNetworking traps converting a larger timeout (or infinity) to milliseconds; ~115 days.
    static let longestTimeout: TimeInterval = 10_000_000

    /// Zero, negative and NaN are not usable; larger than ``longestTimeout`` is capped.
    static func usable(_ timeout: TimeInterval?, or fallback: TimeInterval) -> TimeInterval {
        // NaN is not greater than zero.
        guard let timeout, timeout > 0 else { return fallback > 0 ? min(fallback, longestTimeout) : 60 }
        return min(timeout, longestTimeout)
    }
}
