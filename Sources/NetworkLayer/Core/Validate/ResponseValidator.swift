import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What came back for one request, once the transport has finished with it.
struct Reply {
    let body: Data
    let response: HTTPURLResponse
    let method: HTTPMethod
    /// Whether it came from the layer's cache.
    var cacheStatus: CacheStatus = .network
    /// A value a test double answered with: used as it is when it has the type the request expects.
    var providedValue: ProvidedValue?

    /// 204, 205, a reply to HEAD, or a zero-length body: there is nothing to decode.
    var hasNoContent: Bool { body.isEmpty || cannotHaveContent }

    /// 204, 205 or a reply to HEAD: no body, whatever was sent (or, from a test double, provided).
    var cannotHaveContent: Bool {
        method == .head || response.statusCode == 204 || response.statusCode == 205
    }
}

/// What a request accepts as a successful reply, besides a 2xx status.
struct ReplyExpectation: Sendable {
    let method: HTTPMethod
    /// Media types such as `application/json`, `image/*` or `*/*`; `nil` accepts any.
    let acceptableContentTypes: [String]?
    /// The statuses that are success; `nil` accepts `200..<300`.
    var acceptableStatusCodes: Set<Int>? = nil
    /// A download's body is on disk, not here: its type is checked even though the body is empty, unless
    /// the reply says it has none (204, 205 or `Content-Length: 0`).
    var isDownload = false

    func accepts(status: Int) -> Bool {
        acceptableStatusCodes?.contains(status) ?? (200..<300).contains(status)
    }
}

extension ReplyExpectation {
    /// What `request` accepts. A download writes a file for 2xx replies alone, whatever the request
    /// accepts.
    init<Value>(_ request: NetworkRequest<Value>) {
        let isDownload = request.transfer?.isDownload == true
        self.init(
            method: request.method, acceptableContentTypes: request.acceptableContentTypes,
            acceptableStatusCodes: isDownload ? nil : request.acceptableStatusCodes, isDownload: isDownload)
    }
}

/// Turns the transport's raw outcome into a reply or an error: transport errors, non-HTTP responses,
/// statuses outside 2xx and (when the request names its media types) replies of another type fail here.
enum ResponseValidator {
    /// A transfer's outcome validated, the reply marked with where it came from and what a test double
    /// provided.
    static func validate(_ result: TransferResult, expecting expectation: ReplyExpectation)
        -> Result<Reply, NetworkError>
    {
        validate(body: result.body, response: result.response, error: result.error, expecting: expectation)
            .map { reply in
                var reply = reply
                reply.cacheStatus = result.cacheStatus
                reply.providedValue = result.providedValue
                return reply
            }
    }

    static func validate(
        body: Data,
        response: URLResponse?,
        error: (any Error)?,
        expecting expectation: ReplyExpectation
    ) -> Result<Reply, NetworkError> {
        if let error { return .failure(NetworkError(transportError: error)) }
        guard let response = response as? HTTPURLResponse else { return .failure(.invalidResponse) }
        guard expectation.accepts(status: response.statusCode) else {
            return .failure(
                .unacceptableStatusCode(
                    response.statusCode, body: body, headers: ResponseHeaders(response)))
        }
        let reply = Reply(body: body, response: response, method: expectation.method)
        // A reply with no body has no content type to check.
        let hasBody = expectation.isDownload ? !response.hasNoBody : !reply.hasNoContent
        if let acceptable = expectation.acceptableContentTypes, hasBody {
            let contentType = response.value(forHTTPHeaderField: "Content-Type")
            guard let contentType, MediaType.matches(contentType, anyOf: acceptable) else {
                return .failure(
                    .unacceptableContentType(
                        contentType, body: body, headers: ResponseHeaders(response)))
            }
        }
        return .success(reply)
    }
}

extension HTTPURLResponse {
    /// Whether the reply says it has no body: 204, 205 or `Content-Length: 0`. A download writes an empty
    /// file for it, whatever its content type.
    var hasNoBody: Bool {
        statusCode == 204 || statusCode == 205 || expectedContentLength == 0
    }
}

/// Media type matching for content-type validation: parameters (`; charset=utf-8`) and case are
/// ignored, and `type/*` or `*/*` match any subtype.
enum MediaType {
    static func matches(_ contentType: String, anyOf patterns: [String]) -> Bool {
        let actual = essence(contentType)
        return patterns.contains { pattern in
            let wanted = essence(pattern)
            if wanted == "*/*" || wanted == actual { return true }
            guard wanted.hasSuffix("/*") else { return false }
            return actual.hasPrefix(wanted.dropLast())
        }
    }

    /// `type/subtype`, lowercased, without parameters or spaces.
    private static func essence(_ value: String) -> String {
        let head = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
