import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the `URLRequest` a ``NetworkRequest`` stands for: URL, method, headers, body and timeout.
///
/// Shared with `NetworkTestSupport` so that test doubles record exactly what the real layer would send.
package struct RequestBuilder: Sendable {
    package let resolver: URLResolver
    /// The layer's default headers, sorted once: applied in a fixed order, `accept` and `Accept` in one
    /// dictionary resolve the same way every time.
    private let defaultHeaders: [(key: String, value: String)]
    /// The error of the first invalid default header, found once by `init`: the layer's init can neither
    /// throw nor stop the app, and the mistake is the same for every request, so every request fails.
    private let defaultHeadersError: NetworkError?
    /// Whether a default header carries a credential, which goes only to ``credentialScope``'s origin.
    private let defaultHeaderIsCredential: [Bool]
    private let credentialScope: DefaultCredentialScope?
    package let encoder: JSONEncoder
    package let timeout: TimeInterval

    package func urlRequest<Value>(for description: NetworkRequest<Value>) throws(NetworkError) -> URLRequest
    {
        if let defaultHeadersError { throw defaultHeadersError }
        let headers = Self.sorted(description.headers)
        if let error = Self.invalidHeaderError(in: headers) { throw error }
        let url = try url(for: description)
        let body = try description.body.encoded(with: encoder)
        if let body, !Self.isValidValue(body.contentType) { throw .invalidHeader("Content-Type") }
        let upload = try description.transfer?.checked()
        if body != nil || upload != nil, let refusal = Self.bodyRefusal(for: description.method.rawValue) {
            throw refusal
        }
        var request = URLRequest(url: url)
        request.httpMethod = description.method.rawValue
        request.timeoutInterval = Self.usable(description.timeout, or: timeout)
        // Later fields win and header names are case-insensitive, so each step overrides the one before:
        // Accept, the layer's default headers, the body's Content-Type, then the request's own headers.
        var fields = [
            (name: "Accept", value: description.transfer?.isDownload == true ? "*/*" : "application/json")
        ]
        let sendsCredentials = credentialScope?.allows(url) ?? true
        for (index, header) in defaultHeaders.enumerated()
        where sendsCredentials || !defaultHeaderIsCredential[index] {
            fields.append((name: header.key, value: header.value))
        }
        if let body {
            // Set explicitly: without it FoundationNetworking sends application/x-www-form-urlencoded.
            fields.append((name: "Content-Type", value: body.contentType))
            // httpBody, not uploadTask(from:): a URLProtocol on Linux sees no body from an upload task.
            request.httpBody = body.data
        }
        if let upload {
            guard Self.isValidValue(upload.contentType) else { throw .invalidHeader("Content-Type") }
            // The body itself is a stream the transport attaches to each attempt.
            fields.append((name: "Content-Type", value: upload.contentType))
            fields.append((name: "Content-Length", value: String(upload.length)))
        }
        fields += headers.map { (name: $0.key, value: $0.value) }
        // libcurl sends a declared length with whatever body there is: shorter, and the rest of the body
        // reaches the server as another request (whose reply the next request on the connection gets);
        // longer, and the server waits for bytes that never come.
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

    /// The URL `request` goes to, by the rule `urlRequest(for:)` uses; test doubles match stubs with it.
    package func url<Value>(for request: NetworkRequest<Value>) throws(NetworkError) -> URL {
        try resolver.url(
            for: request.urlString, query: PercentEncoding.query(request.query, request.queryItems),
            requiringPath: request.endpoint != nil)
    }

    /// - Parameter credentialHeaders: Header names the layer treats as credentials besides
    ///   ``Credentials/headers`` (its redirect policy's).
    init(
        resolver: URLResolver, defaultHeaders: [String: String], credentialHeaders: Set<String> = [],
        encoder: JSONEncoder, timeout: TimeInterval
    ) {
        self.resolver = resolver
        self.defaultHeaders = Self.sorted(defaultHeaders)
        defaultHeadersError = Self.invalidHeaderError(in: self.defaultHeaders)
        let extra = Set(credentialHeaders.map { $0.lowercased() })
        defaultHeaderIsCredential = self.defaultHeaders.map {
            Credentials.isCredentialHeader($0.key, orOneOf: extra)
        }
        credentialScope =
            defaultHeaderIsCredential.contains(true) ? DefaultCredentialScope(baseURL: resolver.baseURL) : nil
        self.encoder = encoder
        self.timeout = timeout
    }

    /// A request an interceptor changed, checked as the builder checks its own, so that nothing goes out
    /// other than as written: a header that would inject lines or vanish, a method that is not an
    /// RFC 9110 token, a URL that is not `http` or `https` (`file:`, `data:`), a body on GET or HEAD and
    /// a `Content-Length` that contradicts the body are refused; a timeout FoundationNetworking can't
    /// convert (NaN traps) is replaced by the layer's. `built` is the request this builder made, which
    /// the interceptors started from: a URL they left as it was is not parsed again.
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
        // Against bytes in hand; without any, against what the builder declared: an upload's stream is
        // attached after this check, with the length the builder set, and a request without a body has
        // none to declare.
        if let declared = request.value(forHTTPHeaderField: "Content-Length") {
            let matches =
                if let body = request.httpBody {
                    Int(declared.trimmingCharacters(in: .whitespaces)) == body.count
                } else {
                    declared == built.value(forHTTPHeaderField: "Content-Length")
                        || Int(declared.trimmingCharacters(in: .whitespaces)) == 0
                }
            if !matches { return .failure(Self.contentLengthMismatch) }
        }
        let usableTimeout = Self.usable(request.timeoutInterval, or: timeout)
        // Changing a URLRequest copies it whole: only when the timeout must change (NaN != NaN).
        guard usableTimeout != request.timeoutInterval else { return .success(request) }
        var request = request
        request.timeoutInterval = usableTimeout
        return .success(request)
    }

    /// The error for a body on a method that can't carry one: FoundationNetworking sends a GET's body as
    /// a chunked upload the server doesn't expect, and drops a HEAD's silently.
    private static func bodyRefusal(for method: String) -> NetworkError? {
        switch method.uppercased() {
        case "GET", "HEAD": return .invalidRequest("A \(method.uppercased()) request cannot carry a body.")
        default: return nil
        }
    }

    private static func sorted(_ headers: [String: String]) -> [(key: String, value: String)] {
        headers.count < 2 ? Array(headers) : headers.sorted { $0.key < $1.key }
    }

    /// ``NetworkError/invalidHeader(_:)`` for the first header, in the given order, that cannot be sent
    /// as given; `nil` when all can.
    private static func invalidHeaderError(in headers: [(key: String, value: String)]) -> NetworkError? {
        headers.first { !isValidName($0.key) || !isValidValue($0.value) }.map { .invalidHeader($0.key) }
    }

    /// An RFC 9110 token. FoundationNetworking hands names to libcurl unchecked, so a CR or LF in a name
    /// would write header lines (or a whole second request) of the caller's choosing onto the wire.
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { tokenBytes[Int($0)] }
    }

    /// Anything but CR, LF and NUL, and not blanks alone. libcurl silently drops a header whose value
    /// has a bare CR or LF, or is only spaces and tabs, so the request would go out without it (an
    /// `Authorization` lost, and the call still succeeds); a NUL ends the C string the value is passed
    /// as. Checked on bytes: `"\r\n"` is one `Character`. An empty value is sent as one.
    private static func isValidValue(_ value: String) -> Bool {
        let bytes = value.utf8
        if let first = bytes.first, first == 0x20 || first == 0x09,
            bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 })
        {
            return false
        }
        return !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// RFC 9110's `tchar`, indexed by byte: any non-ASCII byte is `false`.
    private static let tokenBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()

    /// The longest timeout passed on; FoundationNetworking traps converting a larger one (or infinity) to
    /// milliseconds, so `.infinity` means "effectively no limit": about 115 days.
    static let longestTimeout: TimeInterval = 10_000_000

    /// `timeout` if it is a usable number of seconds; otherwise `fallback` (itself made usable).
    /// Zero, negative and NaN are not usable; infinite or huge values are capped at ``longestTimeout``.
    static func usable(_ timeout: TimeInterval?, or fallback: TimeInterval) -> TimeInterval {
        guard let timeout, !timeout.isNaN, timeout > 0 else {
            return fallback.isNaN || fallback <= 0 ? 60 : min(fallback, longestTimeout)
        }
        return min(timeout, longestTimeout)
    }
}
