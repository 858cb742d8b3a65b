import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``NetworkMonitor`` that writes what the layer does as text, with secrets redacted.
///
/// ```swift
/// #if DEBUG
///     let monitors: [any NetworkMonitor] = [NetworkLogger(level: .requests)]
/// #else
///     let monitors: [any NetworkMonitor] = []
/// #endif
/// let network = NetworkLayer(baseURL: api, monitors: monitors)
/// ```
///
/// Redacted in every line (values become `<redacted>`, names stay): the headers `Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie` and `X-Api-Key`, URL user-info, and the headers and
/// query items you name.
public struct NetworkLogger: NetworkMonitor {
    /// How much the logger writes.
    public enum Level: Sendable, Equatable {
        /// One line per failed request.
        case errors
        /// One line per request: method, URL, status or error, size and duration.
        case requests
        /// Every event, with headers and bodies (up to ``NetworkLogger/bodyLimit`` bytes each), and a
        /// curl command for each failed request.
        case full
    }

    /// Headers whose values are always redacted.
    public static let alwaysRedactedHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// How much is written.
    public let level: Level
    /// Header names (any case) whose values are redacted, besides ``alwaysRedactedHeaders``.
    public let redactedHeaders: Set<String>
    /// Query item names (any case) whose values are redacted.
    public let redactedQueryItems: Set<String>
    /// The most bytes of a body written at ``Level/full``.
    public let bodyLimit: Int
    private let sink: @Sendable (String) -> Void
    /// At ``Level/full``, each request's latest attempt, for the curl command if it fails.
    private let lastAttempts = LastAttempts()

    /// A logger.
    ///
    /// - Parameters:
    ///   - level: How much to write; one line per request by default.
    ///   - redactedHeaders: More header names whose values never appear.
    ///   - redactedQueryItems: Query item names whose values never appear.
    ///   - bodyLimit: The most bytes of a body written at ``Level/full``.
    ///   - sink: Where lines go; standard error by default. Called on the monitors' queue.
    public init(
        level: Level = .requests, redactedHeaders: Set<String> = [], redactedQueryItems: Set<String> = [],
        bodyLimit: Int = 4_096, sink: @escaping @Sendable (String) -> Void = NetworkLogger.standardError
    ) {
        self.level = level
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() }).union(Self.alwaysRedactedHeaders)
        self.redactedQueryItems = Set(redactedQueryItems.map { $0.lowercased() })
        self.bodyLimit = max(0, bodyLimit)
        self.sink = sink
    }

    /// Writes `line` and a line break to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    // MARK: - Events

    /// Only at ``Level/full``: the other levels write one line when a request finishes.
    public var observesAttempts: Bool { level == .full }

    /// At ``Level/full``: the request line, headers and body.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire.
    ///   - attempt: The request and attempt number, for the line's `#id.attempt` prefix.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        guard level == .full else { return }
        lastAttempts.set(request, for: attempt.request.id)
        var lines = [
            "→ #\(attempt.request.id).\(attempt.number) \(request.httpMethod ?? "GET") \(redacted(request.url))"
        ]
        lines += headerLines(request.allHTTPHeaderFields ?? [:])
        if let body = request.httpBody, !body.isEmpty { lines.append(bodyText(body)) }
        sink(lines.joined(separator: "\n"))
    }

    /// At ``Level/full``: the status, headers and body.
    ///
    /// - Parameters:
    ///   - response: The reply's status and headers.
    ///   - body: The reply's body, written up to ``bodyLimit`` bytes.
    ///   - attempt: The request and attempt number, for the line's `#id.attempt` prefix.
    public func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        guard level == .full else { return }
        var lines = [
            "← #\(attempt.request.id).\(attempt.number) \(response.statusCode) \(redacted(response.url))"
        ]
        lines += headerLines(ResponseHeaders(response).fields)
        if !body.isEmpty { lines.append(bodyText(body)) }
        sink(lines.joined(separator: "\n"))
    }

    /// At ``Level/full``: the retry and its reason. (At ``Level/requests`` the request's one line counts
    /// its attempts.)
    ///
    /// - Parameters:
    ///   - attempt: The attempt that failed.
    ///   - delay: Seconds until the next attempt.
    ///   - error: Why the attempt failed.
    public func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError)
    {
        guard level == .full else { return }
        let wait = String(format: "%.2f", delay)
        sink(
            "↻ #\(attempt.request.id) \(attempt.request.method.rawValue) \(redacted(attempt.request.url)) attempt \(attempt.number) failed (\(error)); retrying in \(wait) s"
        )
    }

    /// One line per request (failures only at ``Level/errors``); at ``Level/full`` a failure also gets
    /// a curl command.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response (its raw body as `value`) or the error its handler receives.
    ///   - metrics: Its duration, bytes and attempts, written on the line.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let head = "#\(request.id) \(request.method.rawValue) \(redacted(request.url))"
        let last = level == .full ? lastAttempts.take(request.id) : nil
        // Not String(format:), which is slow on Linux: this line is written for every request.
        let cost = "\(Int((metrics.duration * 1_000).rounded())) ms"
        let tries = metrics.attempts > 1 ? ", \(metrics.attempts) attempts" : ""
        switch result {
        case .success(let response):
            guard level != .errors else { return }
            sink("✓ \(head) → \(response.statusCode), \(metrics.bytesReceived) bytes, \(cost)\(tries)")
        case .failure(let error):
            sink("✗ \(head) → \(error) (\(cost)\(tries)): \(error.message)")
            if let last { sink("  " + curlCommand(for: last)) }
        }
    }

    // MARK: - Redaction

    /// `url` with its user-info redacted, and the values of the query items this logger redacts.
    ///
    /// - Parameter url: Any URL; `nil` gives `(no URL)`.
    /// - Returns: The URL as this logger writes it.
    public func redacted(_ url: URL?) -> String {
        guard let url else { return "(no URL)" }
        // Nothing to redact, the usual case: no parsing.
        if url.user == nil, url.password == nil, redactedQueryItems.isEmpty || url.query == nil {
            return url.absoluteString
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return Redaction.url(url.absoluteString)
        }
        // The percent-encoded setters stop the process on `<` or `>`: the marker goes in percent-encoded,
        // and comes out readable.
        let encodedMarker = "%3Credacted%3E"
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            components.percentEncodedUser = encodedMarker
            components.percentEncodedPassword = nil
        }
        if let items = components.percentEncodedQueryItems, !redactedQueryItems.isEmpty {
            components.percentEncodedQueryItems = items.map { item in
                let hidden = redactedQueryItems.contains(
                    item.name.removingPercentEncoding?.lowercased() ?? item.name.lowercased())
                return hidden && item.value != nil
                    ? URLQueryItem(name: item.name, value: encodedMarker) : item
            }
        }
        guard let string = components.string else { return Redaction.url(url.absoluteString) }
        return string.replacingOccurrences(of: encodedMarker, with: Redaction.marker)
    }

    /// A header's value as this logger writes it.
    ///
    /// - Parameters:
    ///   - name: The header's name, in any case.
    ///   - value: Its value.
    /// - Returns: `value`, or `<redacted>` for ``alwaysRedactedHeaders`` and ``redactedHeaders``.
    public func redacted(header name: String, value: String) -> String {
        redactedHeaders.contains(name.lowercased()) ? "<redacted>" : value
    }

    private func headerLines(_ headers: [String: String]) -> [String] {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map {
            "  \($0.key): \(redacted(header: $0.key, value: $0.value))"
        }
    }

    private func bodyText(_ body: Data) -> String {
        let more = body.count > bodyLimit ? " … (\(body.count) bytes in all)" : ""
        var shown = body.prefix(bodyLimit)
        var text = String(data: shown, encoding: .utf8)
        // Cut inside a character: leave out its first bytes (at most three) rather than call it binary.
        while text == nil, body.count > bodyLimit, shown.count > max(0, bodyLimit - 3) {
            shown = shown.dropLast()
            text = String(data: shown, encoding: .utf8)
        }
        guard let text else { return "  <\(body.count) bytes of binary data>" }
        return "  " + text + more
    }
}

/// The latest attempt of each request in flight, for the curl command of a failure.
private final class LastAttempts: @unchecked Sendable {
    // Guarded by `lock`: one logger may serve several layers, each with its own monitors' queue.
    private let lock = NSLock()
    private var requests: [UInt64: URLRequest] = [:]

    func set(_ request: URLRequest, for id: UInt64) {
        lock.withLock { requests[id] = request }
    }

    func take(_ id: UInt64) -> URLRequest? {
        lock.withLock { requests.removeValue(forKey: id) }
    }
}
