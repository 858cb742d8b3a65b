import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A validated reply: `Sendable`, so it can travel up the chain in a `TransferResult`.
struct Reply: Sendable {
    let body: Data
    let response: HTTPURLResponse
    let method: HTTPMethod
    var cacheStatus: CacheStatus = .network
    /// A test double's value: used as is when it has the type the request expects.
    var providedValue: ProvidedValue?
    /// The reply's header fields, when a stage already read them (see ``TransferResult/headers``).
    var headers: ResponseHeaders?

    var hasNoContent: Bool { body.isEmpty || cannotHaveContent }

    /// No body, whatever was sent (or, from a test double, provided).
    var cannotHaveContent: Bool {
        method == .head || response.statusCode == 204 || response.statusCode == 205
    }
}

struct ReplyExpectation: Sendable {
    let method: HTTPMethod
    let acceptableContentTypes: [String]?
    let acceptableStatusCodes: Set<Int>?
    /// A download's body is on disk: its type is checked though the body here is empty, unless the reply
    /// says it has none.
    let isDownload: Bool

    /// A download writes a file for 2xx replies alone, whatever the request accepts.
    init<Value>(_ request: NetworkRequest<Value>) {
        method = request.method
        acceptableContentTypes = request.acceptableContentTypes
        isDownload = request.transfer?.isDownload == true
        acceptableStatusCodes = isDownload ? nil : request.acceptableStatusCodes
    }

    func accepts(status: Int) -> Bool {
        acceptableStatusCodes?.contains(status) ?? (200..<300).contains(status)
    }
}

/// Turns the transport's raw outcome into a reply or an error (transport error, not HTTP, status, type).
enum ResponseValidator {
    static func validate(_ result: TransferResult, expecting expectation: ReplyExpectation)
        -> Result<Reply, NetworkError>
    {
        // The policy stage validated this reply already.
        if let reply = result.validated { return .success(reply) }
        let body = result.body
        if let error = result.error { return .failure(NetworkError(transportError: error)) }
        guard let response = result.response as? HTTPURLResponse else { return .failure(.invalidResponse) }
        guard expectation.accepts(status: response.statusCode) else {
            return .failure(
                .unacceptableStatusCode(
                    response.statusCode, body: body, headers: result.headers ?? ResponseHeaders(response)))
        }
        let reply = Reply(
            body: body, response: response, method: expectation.method, cacheStatus: result.cacheStatus,
            providedValue: result.providedValue, headers: result.headers)
        let hasBody = expectation.isDownload ? !response.hasNoBody : !reply.hasNoContent
        if let acceptable = expectation.acceptableContentTypes, hasBody {
            let contentType = response.value(forHTTPHeaderField: "Content-Type")
            guard let contentType, MediaType.matches(contentType, anyOf: acceptable) else {
                return .failure(
                    .unacceptableContentType(
                        contentType, body: body, headers: result.headers ?? ResponseHeaders(response)))
            }
        }
        return .success(reply)
    }
}

extension HTTPURLResponse {
    /// 204, 205 or `Content-Length: 0`: a download writes an empty file, whatever its content type.
    var hasNoBody: Bool {
        statusCode == 204 || statusCode == 205 || expectedContentLength == 0
    }
}

/// Parameters and case are ignored; `type/*` and `*/*` match any subtype.
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

    private static func essence(_ value: String) -> String {
        let head = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
