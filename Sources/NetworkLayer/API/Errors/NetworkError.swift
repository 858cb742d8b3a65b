import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a request can fail. Exactly one of these reaches the error handler of a failed request.
public enum NetworkError: Error {
    /// The URL string could not be parsed, isn't `http` or `https`, or is a relative path with no base URL.
    /// Carries the offending string.
    case invalidURL(String)
    /// The request body could not be encoded (for example a `Double.nan` in JSON).
    case encodingFailed(any Error)
    /// A header could not be sent as given, so nothing was sent. Carries the header's name, never its
    /// value (which may be a credential).
    ///
    /// A name must be an RFC 9110 token; a value must not contain CR, LF or NUL. Why checked up front:
    /// FoundationNetworking puts a line break in a name on the wire and silently drops a header whose value
    /// has one (see <doc:LinuxNotes>). An invalid default header fails every request of the layer.
    case invalidHeader(String)
    /// The request can't be sent as written, so nothing was sent. Carries a sentence saying why, never a
    /// header's value or a body (a body on GET or HEAD; after an interceptor, a method that isn't a token or
    /// a `Content-Length` that contradicts the body).
    case invalidRequest(String)
    /// The request, its interceptors or its token refresh did not finish within the timeout; or a resumable
    /// upload's server kept acknowledging too little to go on (see <doc:DurableTransfers>).
    case timedOut
    /// The request was cancelled through ``NetworkTask/cancel()``.
    case cancelled
    /// Any other transport failure: connection refused, DNS, TLS, connection lost, and so on. Downloads and
    /// uploads report file problems here too, with URLSession's file codes (`.cannotCreateFile` when the
    /// destination exists, `.cannotOpenFile`, `.cannotWriteToFile`, `.cannotMoveFile`, `.fileDoesNotExist`,
    /// `.fileIsDirectory`, `.noPermissionsToReadFile`) and a description naming the file.
    case transport(URLError)
    /// The server answered with a status outside `200..<300`. Carries the status, the body and the headers
    /// (read in any case: `headers["retry-after"]`), so an API's error payload can be read.
    case unacceptableStatusCode(Int, body: Data, headers: ResponseHeaders)
    /// A 2xx reply whose `Content-Type` the request doesn't accept (``NetworkRequest/acceptableContentTypes``).
    /// Carries the type sent (`nil` for none), the body and the headers.
    case unacceptableContentType(String?, body: Data, headers: ResponseHeaders)
    /// A decodable reply was expected, but the body was empty (or the status was 204 or 205).
    case emptyResponse
    /// The body could not be decoded as the expected type. Carries the decoding error and the body.
    case decodingFailed(any Error, body: Data)
    /// The reply was not an HTTP response.
    case invalidResponse
    /// A failure described by the app or a test double, such as `"Unable to parse response"`.
    case custom(String)
    /// A server-sent event stream stopped reconnecting after ``ServerSentEventsOptions/maximumReconnects``
    /// connections in a row that each ended early (no event, or under a second). Carries that number.
    case tooManyReconnects(Int)
    /// The server asked the layer to send it nothing until a time (a `429` or `503` with `Retry-After`, or
    /// `RateLimit` fields), and the request's time limit ends before then, so nothing was sent. Carries
    /// when the server accepts requests again. See ``RequestScheduling/waitsForRateLimits``.
    case rateLimited(until: Date)
    /// A resumable upload's server doesn't speak the protocol asked for, and the caller chose to fail rather
    /// than send a plain upload. Only the creation request was sent, with none of the file. Carries the
    /// protocol's name (`"tus 1.0"`, or the IETF draft's with its interop version) and the status the
    /// server answered the creation request with.
    case resumableUploadUnsupported(protocolName: String, status: Int)
    /// A stored upload's source file changed (its size or modification date) since the upload began, and
    /// the caller chose not to start over. Carries the file. See ``TransferStore``.
    case sourceFileChanged(URL)
}

extension NetworkError {
    /// A short sentence for a person to read, never empty. URL credentials and the values of query and
    /// fragment parameters are replaced by `<redacted>`, so the text can be shown or logged.
    public var message: String {
        switch self {
        case .invalidURL(let string):
            "The address \(Redaction.quoted(Redaction.url(string))) is not a valid web address."
        case .encodingFailed: "The request could not be prepared."
        case .invalidHeader(let name): "The request header \(Redaction.quoted(name)) is not valid."
        case .invalidRequest(let reason): reason
        case .timedOut: "The request timed out."
        case .cancelled: "The request was cancelled."
        case .transport(let error): Self.message(for: error.code)
        case .unacceptableStatusCode(let code, _, _):
            "The server answered with an error (\(code) \(HTTPURLResponse.localizedString(forStatusCode: code)))."
        case .unacceptableContentType: "The server answered with an unexpected kind of content."
        case .emptyResponse: "The server sent an empty response."
        case .decodingFailed: "The server's response could not be read."
        case .invalidResponse: "The server's response was not a valid HTTP response."
        case .custom(let text): text.isEmpty ? "Something went wrong." : Redaction.text(text)
        case .tooManyReconnects(let count):
            "The server kept ending the stream soon after it started; it stopped after \(count) reconnections."
        case .rateLimited:
            "The server asked for a pause in requests longer than this request could wait."
        case .resumableUploadUnsupported(let name, let status):
            "The server doesn't support \(name) resumable uploads: it answered the creation request with "
                + "\(status) and no upload to resume."
        case .sourceFileChanged(let file):
            "The file \(Redaction.quoted(file.lastPathComponent)) changed since its upload began; it was not resumed."
        }
    }

    /// The HTTP status code, for ``unacceptableStatusCode(_:body:headers:)``; otherwise `nil`.
    public var statusCode: Int? {
        if case .unacceptableStatusCode(let code, _, _) = self { return code }
        return nil
    }

    /// The reply's headers, for ``unacceptableStatusCode(_:body:headers:)`` and
    /// ``unacceptableContentType(_:body:headers:)``; otherwise `nil`. Read in any case.
    public var headers: ResponseHeaders? {
        switch self {
        case .unacceptableStatusCode(_, _, let headers), .unacceptableContentType(_, _, let headers):
            return headers
        default: return nil
        }
    }

    /// The body the server sent, for ``unacceptableStatusCode(_:body:headers:)``,
    /// ``unacceptableContentType(_:body:headers:)`` and ``decodingFailed(_:body:)``; otherwise `nil`.
    public var responseBody: Data? {
        switch self {
        case .unacceptableStatusCode(_, let body, _), .unacceptableContentType(_, let body, _),
            .decodingFailed(_, let body):
            return body
        default: return nil
        }
    }

    private static func message(for code: URLError.Code) -> String {
        switch code {
        case .notConnectedToInternet, .networkConnectionLost, .dataNotAllowed:
            "The network connection was lost. Check your connection and try again."
        case .cannotFindHost, .dnsLookupFailed: "The server could not be found."
        case .cannotConnectToHost: "Could not connect to the server."
        case .dataLengthExceedsMaximum: "The server's reply was too large."
        case .cannotCreateFile: "A file with that name already exists."
        case .cannotOpenFile, .cannotWriteToFile, .cannotMoveFile, .cannotCloseFile, .cannotRemoveFile:
            "The file could not be saved."
        case .fileDoesNotExist, .fileIsDirectory: "The file could not be found."
        case .noPermissionsToReadFile: "The file could not be read."
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            "A secure connection to the server could not be made."
        default: "A network error occurred."
        }
    }
}

extension NetworkError {
    /// A `URLError` is rebuilt with its code, its URL and description redacted and its underlying errors
    /// left out, so `dump(error)` (what crash reporters capture) is as clean as ``message``.
    init(transportError error: any Error) {
        // A sink's own verdict (a stream element that didn't decode) passes unchanged.
        if let error = error as? NetworkError {
            self = error
            return
        }
        let code = (error as? URLError)?.code ?? .unknown
        switch code {
        case .timedOut: self = .timedOut
        case .cancelled: self = .cancelled
        default: self = .transport(URLError(code, userInfo: Self.redactedUserInfo(of: error as NSError)))
        }
    }

    /// `NSURLErrorFailingURLStringErrorKey`, deprecated but still filled in by URLSession.
    private static let failingURLStringKey = "NSErrorFailingURLStringKey"

    private static func redactedUserInfo(of error: NSError) -> [String: Any] {
        var info: [String: Any] = [:]
        if let description = error.userInfo[NSLocalizedDescriptionKey] as? String {
            info[NSLocalizedDescriptionKey] = Redaction.text(description)
        }
        let failing =
            (error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString
            ?? error.userInfo[failingURLStringKey] as? String
        if let failing {
            let redacted = Redaction.url(failing)
            info[failingURLStringKey] = redacted
            // The marker percent-encoded, so that the URL parses.
            let encoded = redacted.replacingOccurrences(of: Redaction.marker, with: "%3Credacted%3E")
            if let url = URL(string: encoded) { info[NSURLErrorFailingURLErrorKey] = url }
        }
        return info
    }
}

extension NetworkError: ExpressibleByStringLiteral {
    /// Creates ``custom(_:)`` from a literal, so a test can write `network.errorResponse = "Offline"`.
    ///
    /// - Parameter value: The message.
    public init(stringLiteral value: String) {
        self = .custom(value)
    }
}

extension NetworkError: LocalizedError {
    /// The same text as ``message``.
    public var errorDescription: String? { message }
}

extension NetworkError: CustomStringConvertible {
    /// A description for logs and test failures: the case and its details, redacted as ``message`` is,
    /// underlying errors' texts included. Headers' values and bodies are never shown.
    public var description: String {
        switch self {
        case .invalidURL(let string): return "invalidURL(\(Redaction.quoted(Redaction.url(string))))"
        case .encodingFailed(let error): return "encodingFailed(\(Redaction.text("\(error)")))"
        case .invalidHeader(let name): return "invalidHeader(\(Redaction.quoted(name)))"
        case .invalidRequest(let reason): return "invalidRequest(\(Redaction.quoted(reason)))"
        case .timedOut: return "timedOut"
        case .cancelled: return "cancelled"
        case .transport(let error):
            // The underlying text may name the failing URL (a test double's does), secrets and all.
            let detail = (error.userInfo[NSLocalizedDescriptionKey] as? String).map(Redaction.text)
            return "transport(URLError \(error.code.rawValue)\(detail.map { ": \($0)" } ?? ""))"
        case .unacceptableStatusCode(let code, let body, _):
            return "unacceptableStatusCode(\(code), body: \(body.count) bytes)"
        case .unacceptableContentType(let type, let body, _):
            return
                "unacceptableContentType(\(type.map(Redaction.quoted) ?? "none"), body: \(body.count) bytes)"
        case .emptyResponse: return "emptyResponse"
        case .decodingFailed(let error, let body):
            return "decodingFailed(\(Redaction.text("\(error)")), body: \(body.count) bytes)"
        case .invalidResponse: return "invalidResponse"
        case .custom(let text): return "custom(\(Redaction.quoted(Redaction.text(text))))"
        case .tooManyReconnects(let count): return "tooManyReconnects(\(count))"
        case .rateLimited(let date): return "rateLimited(until: \(date))"
        case .resumableUploadUnsupported(let name, let status):
            return "resumableUploadUnsupported(protocolName: \(Redaction.quoted(name)), status: \(status))"
        case .sourceFileChanged(let file):
            return "sourceFileChanged(\(Redaction.quoted(file.lastPathComponent)))"
        }
    }
}

extension NetworkError: CustomReflectable {
    /// What `dump(_:)`, debuggers and crash reporters show: the case and its redacted ``description``
    /// rather than every associated value. Match the case to read the values.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .enum)
    }
}
