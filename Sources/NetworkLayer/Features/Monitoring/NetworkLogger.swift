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
/// Redacted in every line, and in ``curlCommand(for:)`` (values become `<redacted>`, names stay):
/// - the headers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key` and
///   `X-Auth-Token` (``alwaysRedactedHeaders``), and those you name;
/// - URL user-info, the whole fragment, and the query items that carry credentials by convention
///   (``alwaysRedactedQueryItems``: `access_token`, `api_key`, `password`, `signature`, …) and those you
///   name, in the request's URL and in `Location`, `Content-Location` and `Referer` headers;
/// - in bodies written at ``Level/full`` (requests and replies, error replies included) the values of
///   JSON members and form fields named like those query items or credential headers
///   (`"password": "<redacted>"`, `client_secret=<redacted>`), unless `redactsBodies` is `false`, for local
///   debugging. Other bodies are written as they are.
///
/// Names are compared in any case and without `_` and `-`: `accessToken`, `AccessToken` and
/// `access-token` are all redacted as `access_token` is.
///
/// Each line shows the request as sent, after interceptors changed it (an API key an interceptor adds
/// as a query item is redacted like any other).
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

    /// Query items, fragment parameters and JSON members whose values are always redacted: the names
    /// that carry credentials by convention (`access_token`, `id_token`, `refresh_token`, `token`,
    /// `api_key`, `apikey`, `key`, `password`, `secret`, `signature`, `sig`, `code`, `client_secret`), and
    /// the signatures and credentials of cloud storage's signed URLs (`X-Amz-Signature`,
    /// `X-Amz-Credential`, `X-Amz-Security-Token`, `X-Goog-Signature`, `X-Goog-Credential`; Azure's SAS
    /// signature is `sig`). A query value that is itself a URL (`next=/a?token=…`) is redacted as a URL.
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
    /// JSON member and form field names whose values are redacted, as ``Credentials/comparable(_:)``
    /// writes them: `accessToken` matches `access_token`.
    private let redactedMembers: Set<String>
    /// ``redactedQueryItems`` as ``Credentials/comparable(_:)`` writes them.
    private let redactedQueryNames: Set<String>
    private let sink: @Sendable (String) -> Void
    /// Each request's latest attempt: its URL as sent for the request's line, and at ``Level/full`` the
    /// curl command if it fails.
    private let lastAttempts = LastAttempts()

    /// A logger.
    ///
    /// - Parameters:
    ///   - level: How much to write; one line per request by default.
    ///   - redactedHeaders: More header names whose values never appear.
    ///   - redactedQueryItems: Query item names whose values never appear.
    ///   - bodyLimit: The most bytes of a body written at ``Level/full``.
    ///   - redactsBodies: Whether JSON members with credential names are redacted in bodies; turn it off
    ///     only for local debugging.
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

    /// Writes `line` and a line break to standard error. A failed write (a closed descriptor) is dropped:
    /// `FileHandle.write(_:)` would raise an Objective-C exception on Apple platforms, which Swift can't
    /// catch, so the throwing `write(contentsOf:)` is used.
    public static let standardError: @Sendable (String) -> Void = { line in
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    // MARK: - Events

    /// `true`: every level writes the URL as sent, which only the attempts' events carry.
    public var observesAttempts: Bool { true }

    /// At ``Level/full``: the request line, headers and body. At the other levels it only notes the URL
    /// as sent, for the request's line.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire.
    ///   - attempt: The request and attempt number, for the line's `#id.attempt` prefix.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        guard level == .full else {
            // Only the URL: the request's line shows it as sent.
            if let url = request.url { lastAttempts.set(URLRequest(url: url), for: attempt.request.id) }
            return
        }
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

    /// One line per request: `✓` for a success, `✗` for a failure, `⊘` for a request or stream the caller
    /// cancelled (``NetworkError/cancelled``), which is not a failure. At ``Level/errors`` only failures
    /// are written; at ``Level/full`` a failure also gets a curl command.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response (its raw body as `value`) or the error its handler receives.
    ///   - metrics: Its duration, bytes and attempts, written on the line.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let last = lastAttempts.take(request.id)
        let head = "#\(request.id) \(request.method.rawValue) \(redacted(last?.url ?? request.url))"
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
            if level == .full, let last { sink("  " + curlCommand(for: last)) }
        }
    }

    // MARK: - Redaction

    /// `url` with its user-info and fragment redacted, and the values of the query items this logger
    /// redacts.
    ///
    /// - Parameter url: Any URL; `nil` gives `(no URL)`.
    /// - Returns: The URL as this logger writes it.
    public func redacted(_ url: URL?) -> String {
        guard let url else { return "(no URL)" }
        // Nothing to redact, the usual case: no parsing.
        if url.user == nil, url.password == nil, url.query == nil, url.fragment == nil {
            return url.absoluteString
        }
        return redacted(urlString: url.absoluteString)
    }

    /// A URL written as text (a `Location` header's), redacted as ``redacted(_:)`` redacts a URL; text
    /// Foundation can't read as a URL loses every query value and its user-info.
    ///
    /// - Parameter urlString: The text.
    /// - Returns: The text as this logger writes it.
    public func redacted(urlString: String) -> String {
        redacted(urlString: urlString, nesting: 0)
    }

    /// ``redacted(urlString:)`` for a URL found `nesting` query values deep.
    private func redacted(urlString: String, nesting: Int) -> String {
        guard var components = URLComponents(string: urlString) else { return Redaction.url(urlString) }
        // The percent-encoded setters stop the process on `<` or `>`: the marker goes in percent-encoded,
        // and comes out readable.
        let encodedMarker = "%3Credacted%3E"
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            components.percentEncodedUser = encodedMarker
            components.percentEncodedPassword = nil
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard let value = item.value else { return item }
                if redactsQueryItem(named: item.name.removingPercentEncoding ?? item.name) {
                    return URLQueryItem(name: item.name, value: encodedMarker)
                }
                // The marker inside a nested URL is percent-encoded with the rest of it.
                return redactedNestedURL(inQueryValue: value, nesting: nesting + 1).map {
                    URLQueryItem(name: item.name, value: Self.percentEncodedQueryValue($0))
                } ?? item
            }
        }
        // A fragment never goes on the wire; when it holds anything, it is an app's (or a server's
        // `#access_token=…`), so none of it is shown.
        if let fragment = components.percentEncodedFragment, !fragment.isEmpty {
            components.percentEncodedFragment = encodedMarker
        }
        guard let string = components.string else { return Redaction.url(urlString) }
        return string.replacingOccurrences(of: encodedMarker, with: Redaction.marker)
    }

    /// A query value that is itself a URL or a path with a query (`next=/a?token=abc`, percent-encoded or
    /// not), redacted as a URL is; `nil` when the value is not such a URL or has nothing to hide.
    ///
    /// - Parameters:
    ///   - percentEncodedValue: The value as it appears in the query.
    ///   - nesting: How many query values deep the value is; one nested deeper than
    ///     ``maximumURLNesting`` (a hostile `Location`'s, say) is redacted whole, so that the depth of
    ///     the recursion, and the stack it takes, stay bounded.
    /// - Returns: The value, decoded and redacted, with `<redacted>` written plainly.
    package func redactedNestedURL(inQueryValue percentEncodedValue: String, nesting: Int = 1) -> String? {
        let value = percentEncodedValue.removingPercentEncoding ?? percentEncodedValue
        guard value.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) else { return nil }
        guard nesting <= Self.maximumURLNesting else { return Redaction.marker }
        let redacted = redacted(urlString: value, nesting: nesting)
        return redacted == value ? nil : redacted
    }

    /// URLs inside query values are read this many levels deep; a real one nests two or three.
    static let maximumURLNesting = 8

    /// Text percent-encoded for a query value: only unreserved characters and `/` and `:` stay as they
    /// are, so `&`, `=`, `#`, `<` and `>` can't end or confuse the value.
    package static func percentEncodedQueryValue(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? value
    }

    private static let queryValueCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:")

    /// Whether the value of a query item (or a fragment parameter) named `name` is redacted: names are
    /// compared in any case, and without `_` and `-` (`accessToken` matches `access_token`).
    ///
    /// - Parameter name: The item's name, percent-decoded.
    package func redactsQueryItem(named name: String) -> Bool {
        redactedQueryNames.contains(Credentials.comparable(name))
    }

    /// A body's text as this logger writes it: with ``redactsBodies``, the values of JSON members and of
    /// form fields (`application/x-www-form-urlencoded`) with credential names replaced by `<redacted>`,
    /// names compared in any case and without `_` and `-` (`accessToken` matches `access_token`); a body
    /// that is not UTF-8 text comes back unchanged.
    ///
    /// - Parameter body: A request's or a reply's body.
    /// - Returns: `body`, redacted.
    public func redacted(body: Data) -> Data {
        guard redactsBodies, let text = String(data: body, encoding: .utf8) else { return body }
        let redacted =
            FormRedaction.redacted(text, names: redactedMembers)
            ?? JSONRedaction.redacted(text, names: redactedMembers)
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

    private func headerLines(_ headers: [String: String]) -> [String] {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map {
            "  \($0.key): \(redacted(headerValue: $0.value, of: $0.key))"
        }
    }

    /// A header's value with its secrets removed: a credential's whole value, a URL's secret parts.
    func redacted(headerValue value: String, of name: String) -> String {
        let shown = redacted(header: name, value: value)
        return Self.urlHeaders.contains(name.lowercased()) ? redacted(urlString: shown) : shown
    }

    /// Headers whose value is a URL, redacted as the request's URL is.
    private static let urlHeaders: Set<String> = ["location", "content-location", "referer"]

    private func bodyText(_ body: Data) -> String {
        let body = redacted(body: body)
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
/// Shared: one logger may serve several layers, each with its own monitors' queue.
private final class LastAttempts: Sendable {
    private let requests = Locked([UInt64: URLRequest]())

    func set(_ request: URLRequest, for id: UInt64) {
        requests.withLock { $0[id] = request }
    }

    func take(_ id: UInt64) -> URLRequest? {
        requests.withLock { $0.removeValue(forKey: id) }
    }
}
