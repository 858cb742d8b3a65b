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
/// Values of credential headers, credential query items (in the URL and in `Location`-like headers), URL
/// user-info and fragments, and credential-named JSON members and form fields in bodies become
/// `<redacted>`; names are compared in any case and without `_` and `-`. Credential headers are the
/// layer's whole list: the library's, and those its ``RedirectPolicy/credentialHeaders`` adds (each event
/// carries them in ``MonitoredRequest/credentialHeaders``). The URL is the one sent, after interceptors.
/// The full rules are in <doc:MonitoringAndLogging>.
public struct NetworkLogger: NetworkMonitor {
    /// How much the logger writes.
    public enum Level: Sendable, Equatable {
        /// One line per failed request (a cancel is not a failure).
        case errors
        /// One line per request: method, URL, status, error or cancel, size and duration.
        case requests
        /// Every event, with headers and bodies (up to ``NetworkLogger/bodyLimit`` bytes each), and a
        /// curl command for each failed request.
        case full
    }

    /// Headers whose values are always redacted: the layer's credentials and `Set-Cookie`.
    public static let alwaysRedactedHeaders: Set<String> = Credentials.headers.union(["set-cookie"])

    /// Query items, fragment parameters and JSON members whose values are always redacted: names that carry
    /// credentials by convention (`access_token`, `api_key`, `password`, `sig`, …) and cloud storage's
    /// signed-URL parameters (`X-Amz-Signature`, `X-Goog-Credential`, …).
    public static let alwaysRedactedQueryItems: Set<String> = Credentials.parameters

    /// How much is written.
    public let level: Level
    /// Header names (any case) whose values are redacted, besides ``alwaysRedactedHeaders``.
    public let redactedHeaders: Set<String>
    /// Query item names (lowercased) whose values are redacted, ``alwaysRedactedQueryItems`` included.
    public let redactedQueryItems: Set<String>
    /// The most bytes of a body written at ``Level/full``.
    public let bodyLimit: Int
    /// Whether JSON members with credential names are redacted in bodies; `true` unless turned off.
    public let redactsBodies: Bool
    /// ``redactedQueryItems`` and ``redactedHeaders`` as ``Credentials/comparable(_:)`` writes them.
    private let redactedMembers: Set<String>
    private let redactedQueryNames: Set<String>
    /// Where lines go; internal for the warnings' extension.
    let sink: @Sendable (String) -> Void
    /// Each request's latest attempt, for its URL as sent and the curl command of a failure; locked, as
    /// one logger may serve several layers' queues.
    private let lastAttempts = Locked([UInt64: URLRequest]())

    /// A logger.
    ///
    /// - Parameters:
    ///   - level: How much to write; one line per request by default.
    ///   - redactedHeaders: More header names whose values never appear.
    ///   - redactedQueryItems: Query item names whose values never appear.
    ///   - bodyLimit: The most bytes of a body written at ``Level/full``.
    ///   - redactsBodies: Whether credential-named JSON members are redacted in bodies; turn it off only
    ///     for local debugging.
    ///   - sink: Where lines go; standard error by default. Called on the monitors' queue.
    public init(
        level: Level = .requests, redactedHeaders: Set<String> = [], redactedQueryItems: Set<String> = [],
        bodyLimit: Int = 4_096, redactsBodies: Bool = true,
        sink: @escaping @Sendable (String) -> Void = NetworkLogger.standardError
    ) {
        self.level = level
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() }).union(Self.alwaysRedactedHeaders)
        self.redactedQueryItems = Set(redactedQueryItems.map { $0.lowercased() })
            .union(Self.alwaysRedactedQueryItems)
        self.bodyLimit = max(0, bodyLimit)
        self.redactsBodies = redactsBodies
        redactedQueryNames = Set(self.redactedQueryItems.map(Credentials.comparable))
        redactedMembers = redactedQueryNames.union(self.redactedHeaders.map(Credentials.comparable))
        self.sink = sink
    }

    /// Writes `line` and a line break to standard error, dropping a failed write.
    /// Why `write(contentsOf:)`: `write(_:)` raises an uncatchable Objective-C exception on Apple platforms.
    public static let standardError: @Sendable (String) -> Void = { line in
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    // MARK: - Events

    /// `true`: every level writes the URL as sent, which only the attempts' events carry.
    public var observesAttempts: Bool { true }

    /// At ``Level/full``: the request line, headers and body; otherwise it notes the URL as sent.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire.
    ///   - attempt: The request and attempt number, for the line's `#id.attempt` prefix.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        // Below `.full` only the URL as sent is written, and no curl command: the rest isn't kept.
        let kept = level == .full ? request : request.url.map { URLRequest(url: $0) }
        lastAttempts.withLock { $0[attempt.request.id] = kept }
        guard level == .full else { return }
        write(
            "→ #\(attempt.request.id).\(attempt.number) \(request.httpMethod ?? "GET") \(redacted(request.url))",
            headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Data(),
            credentialHeaders: attempt.request.credentialHeaders)
    }

    /// At ``Level/full``: the status, headers and body.
    ///
    /// - Parameters:
    ///   - response: The reply's status and headers.
    ///   - body: The reply's body, written up to ``bodyLimit`` bytes.
    ///   - attempt: The request and attempt number, for the line's `#id.attempt` prefix.
    public func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        guard level == .full else { return }
        write(
            "← #\(attempt.request.id).\(attempt.number) \(response.statusCode) \(redacted(response.url))",
            headers: ResponseHeaders(response).fields, body: body,
            credentialHeaders: attempt.request.credentialHeaders)
    }

    /// `credentialHeaders`: the request's layer's names, redacted besides this logger's own.
    private func write(_ head: String, headers: [String: String], body: Data, credentialHeaders: Set<String>)
    {
        let fields = headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map {
            "  \($0.key): \(redacted(headerValue: $0.value, of: $0.key, credentialHeaders: credentialHeaders))"
        }
        let text = body.isEmpty ? [] : [bodyText(body, credentialHeaders: credentialHeaders)]
        sink(([head] + fields + text).joined(separator: "\n"))
    }

    /// At ``Level/full``: the retry and its reason.
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

    /// One line per request: `✓` success, `✗` failure, `⊘` cancelled (not a failure). ``Level/errors``
    /// writes only failures; ``Level/full`` adds a curl command to a failure.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response (its raw body as `value`) or the error its handler receives.
    ///   - metrics: Its duration, bytes and attempts, written on the line.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let last = lastAttempts.withLock { $0.removeValue(forKey: request.id) }
        let revalidation = request.isRevalidation ? " (revalidation)" : ""
        let head =
            "#\(request.id) \(request.method.rawValue) \(redacted(last?.url ?? request.url))\(revalidation)"
        // Not String(format:), which is slow on Linux: this line is written for every request.
        let cost = "\(Int((metrics.duration * 1_000).rounded())) ms"
        let tries = metrics.attempts > 1 ? ", \(metrics.attempts) attempts" : ""
        let events = metrics.eventCount.map { ", \($0) events" } ?? ""
        switch result {
        case .success(let response):
            guard level != .errors else { return }
            let cached = response.cacheStatus.isFromCache ? ", \(response.cacheStatus)" : ""
            sink(
                "✓ \(head) → \(response.statusCode), \(metrics.bytesReceived) bytes\(events), \(cost)\(tries)\(cached)"
            )
        case .failure(.cancelled):
            // The caller's own decision, not a failure: no curl command, nothing at `.errors`.
            guard level != .errors else { return }
            sink("⊘ \(head) → cancelled (\(cost)\(tries)\(events))")
        case .failure(let error):
            sink("✗ \(head) → \(error) (\(cost)\(tries)\(events)): \(error.message)")
            if level == .full, let last {
                sink("  " + curlCommand(for: last, credentialHeaders: request.credentialHeaders))
            }
        }
    }

    // MARK: - Redaction

    /// `url` with its user-info, fragment and the values of redacted query items replaced.
    ///
    /// - Parameter url: Any URL; `nil` gives `(no URL)`.
    /// - Returns: The URL as this logger writes it.
    public func redacted(_ url: URL?) -> String {
        guard let url else { return "(no URL)" }
        if url.user == nil, url.password == nil, url.query == nil, url.fragment == nil {
            return url.absoluteString
        }
        return redacted(urlString: url.absoluteString)
    }

    /// A URL written as text (a `Location` header's), redacted as ``redacted(_:)`` does; text that isn't a
    /// URL loses every query value and its user-info.
    ///
    /// - Parameter urlString: The text.
    /// - Returns: The text as this logger writes it.
    public func redacted(urlString: String) -> String {
        redacted(urlString: urlString, nesting: 0)
    }

    private func redacted(urlString: String, nesting: Int) -> String {
        guard URLComponents(string: urlString) != nil else { return Redaction.url(urlString) }
        // A fragment never goes on the wire; when it holds anything, it is an app's (or a server's
        // `#access_token=…`), so none of it is shown.
        return Redaction.url(urlString, hidingFragment: true) { name, value in
            if redactsQueryItem(named: Self.percentDecoded(name)) { return Redaction.marker }
            // The marker inside a nested URL is percent-encoded with the rest of it, then made readable.
            return redactedNestedURL(inQueryValue: value, nesting: nesting + 1).map {
                Self.percentEncodedQueryValue($0).replacingOccurrences(
                    of: "%3Credacted%3E", with: Redaction.marker)
            }
        }
    }

    /// A query value that is itself a URL (`next=/a?token=abc`), decoded and redacted with `<redacted>`
    /// written plainly; `nil` when it isn't one or has nothing to hide. Nested past
    /// ``maximumURLNesting``, it is redacted whole: a hostile `Location` can't make the recursion deep.
    package func redactedNestedURL(inQueryValue percentEncodedValue: String, nesting: Int = 1) -> String? {
        let value = Self.percentDecoded(percentEncodedValue)
        guard value.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) else { return nil }
        guard nesting <= Self.maximumURLNesting else { return Redaction.marker }
        let redacted = redacted(urlString: value, nesting: nesting)
        return redacted == value ? nil : redacted
    }

    /// `text` percent-decoded; without a `%`, `text` itself rather than the decoder's copy of it.
    private static func percentDecoded(_ text: String) -> String {
        text.utf8.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
    }

    /// URLs inside query values are read this many levels deep; a real one nests two or three.
    static let maximumURLNesting = 8

    /// Percent-encodes all but unreserved characters, `/` and `:`, so `&`, `=`, `#`, `<` and `>` can't
    /// break the value.
    package static func percentEncodedQueryValue(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? value
    }

    private static let queryValueCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:")

    /// Whether a query item (or fragment parameter) named `name`, percent-decoded, is redacted.
    package func redactsQueryItem(named name: String) -> Bool {
        redactedQueryNames.contains(Credentials.comparable(name))
    }

    /// A body as this logger writes it: with ``redactsBodies``, credential-named JSON members and form
    /// fields get `<redacted>`; a body that is not UTF-8 text comes back unchanged.
    ///
    /// - Parameter body: A request's or a reply's body.
    /// - Returns: `body`, redacted.
    public func redacted(body: Data) -> Data {
        redacted(body: body, credentialHeaders: [])
    }

    /// `body` redacted as ``redacted(body:)`` does, members named like `credentialHeaders` included.
    package func redacted(body: Data, credentialHeaders: Set<String>) -> Data {
        guard redactsBodies, let text = String(data: body, encoding: .utf8) else { return body }
        let names =
            credentialHeaders.isEmpty
            ? redactedMembers : redactedMembers.union(credentialHeaders.map(Credentials.comparable))
        let redacted =
            FormRedaction.redacted(text, names: names) ?? JSONRedaction.redacted(text, names: names)
        return redacted == text ? body : Data(redacted.utf8)
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

    /// A header's value as a line, a curl command or a HAR archive writes it: `credentialHeaders`
    /// (lowercased, the request's layer's names) are redacted too, and the URL in `Location`,
    /// `Content-Location` or `Referer` loses its secrets.
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - name: Its name, in any case.
    ///   - credentialHeaders: More names whose values are redacted, lowercased.
    ///   - redactingURL: How a URL-valued header's value loses its secrets; `nil`: as
    ///     ``redacted(urlString:)`` writes it (a HAR archive keeps it a valid URL instead).
    package func redacted(
        headerValue value: String, of name: String, credentialHeaders: Set<String>,
        redactingURL: ((String) -> String)? = nil
    ) -> String {
        let shown =
            credentialHeaders.contains(name.lowercased())
            ? Redaction.marker : redacted(header: name, value: value)
        guard Self.urlHeaders.contains(name.lowercased()) else { return shown }
        return redactingURL?(shown) ?? redacted(urlString: shown)
    }

    private static let urlHeaders: Set<String> = ["location", "content-location", "referer"]

    private func bodyText(_ body: Data, credentialHeaders: Set<String>) -> String {
        let body = redacted(body: body, credentialHeaders: credentialHeaders)
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
