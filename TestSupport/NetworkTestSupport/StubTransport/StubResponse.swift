import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the stub transport answers to a request it matched.
public struct StubResponse: Sendable {
    enum Kind: Sendable {
        case http(status: Int, headers: [String: String], body: Data)
        case notHTTP(body: Data)
        case failure(URLError)
    }

    let kind: Kind
    /// Seconds to wait before answering.
    public var delay: TimeInterval

    /// An HTTP reply with a status, headers and raw body.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The reply's headers.
    ///   - body: The body, sent as is.
    ///   - delay: Seconds to wait before answering.
    public init(
        status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: TimeInterval = 0
    ) {
        self.kind = .http(status: status, headers: headers, body: body)
        self.delay = delay
    }

    init(kind: Kind, delay: TimeInterval) {
        self.kind = kind
        self.delay = delay
    }

    /// An HTTP reply whose body is `value` encoded as JSON, with `Content-Type: application/json`.
    ///
    /// A value that cannot be encoded becomes a `500` whose body says why, so the test fails visibly.
    ///
    /// - Parameters:
    ///   - value: The body, encoded with `encoder`.
    ///   - status: The status code.
    ///   - headers: The reply's headers.
    ///   - encoder: Encodes `value`.
    ///   - delay: Seconds to wait before answering.
    /// - Returns: The reply.
    public static func json<T: Encodable>(
        _ value: T, status: Int = 200, headers: [String: String] = [:], encoder: JSONEncoder = JSONEncoder(),
        delay: TimeInterval = 0
    ) -> StubResponse {
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            headers["Content-Type"] = "application/json"
        }
        do {
            return StubResponse(
                status: status, headers: headers, body: try encoder.encode(value), delay: delay)
        } catch {
            return StubResponse(
                status: 500, body: Data("StubResponse.json could not encode: \(error)".utf8), delay: delay)
        }
    }

    /// An HTTP reply whose body is the contents of a file, such as a JSON fixture in the test bundle
    /// (`Bundle.module.url(forResource: "todos", withExtension: "json")`); a missing file becomes a `500`
    /// that says so. A `.json` file is sent with `Content-Type: application/json` unless `headers` names
    /// a type.
    ///
    /// - Parameters:
    ///   - url: The file, read now.
    ///   - status: The status code.
    ///   - headers: The reply's headers.
    ///   - delay: Seconds to wait before answering.
    /// - Returns: The reply.
    public static func file(
        _ url: URL, status: Int = 200, headers: [String: String] = [:], delay: TimeInterval = 0
    ) -> StubResponse {
        var headers = headers
        if url.pathExtension.lowercased() == "json",
            !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame })
        {
            headers["Content-Type"] = "application/json"
        }
        do {
            return StubResponse(
                status: status, headers: headers, body: try Data(contentsOf: url), delay: delay)
        } catch {
            return StubResponse(
                status: 500, body: Data("StubResponse.file could not read \(url.path)".utf8), delay: delay)
        }
    }

    /// A transport failure, such as `URLError(.notConnectedToInternet)`.
    ///
    /// - Parameters:
    ///   - error: The error URLSession reports.
    ///   - delay: Seconds to wait before answering.
    /// - Returns: The failure.
    public static func failure(_ error: URLError, delay: TimeInterval = 0) -> StubResponse {
        StubResponse(kind: .failure(error), delay: delay)
    }

    /// A reply that is a plain `URLResponse`, not an HTTP one (what a `data:` URL gives).
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - delay: Seconds to wait before answering.
    /// - Returns: The reply.
    public static func notHTTP(body: Data = Data(), delay: TimeInterval = 0) -> StubResponse {
        StubResponse(kind: .notHTTP(body: body), delay: delay)
    }
}
