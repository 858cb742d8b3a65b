import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``HARRecorder`` writes of a request or a response, secrets removed by `NetworkLogger`'s rules
/// before anything is stored: header values the logger redacts, the values of the query items it
/// redacts, and URL user-info.
///
/// In URLs the marker is written percent-encoded (`%3Credacted%3E`), so the URL stays valid and
/// `queryString` reads `<redacted>`; replay takes a redacted query value for any value.
struct HARRedactor: Sendable {
    /// What a secret becomes, as `NetworkLogger` writes it.
    static let marker = "<redacted>"
    /// ``marker`` as it appears in a URL.
    static let encodedMarker = "%3Credacted%3E"

    /// The logger whose redaction rules apply; it never writes anything.
    let rules: NetworkLogger

    init(redactedHeaders: Set<String>, redactedQueryItems: Set<String>, redactsBodies: Bool = true) {
        rules = NetworkLogger(
            level: .errors, redactedHeaders: redactedHeaders, redactedQueryItems: redactedQueryItems,
            redactsBodies: redactsBodies, sink: { _ in })
    }

    /// A request as the layer sent it, redacted; `credentialHeaders` are its layer's names besides the
    /// logger's (`MonitoredRequest.credentialHeaders`). A body sent as a stream is not recorded: reading
    /// it would take it from the request.
    func request(_ request: URLRequest, credentialHeaders: Set<String> = []) -> HARArchive.Request {
        let fields = request.allHTTPHeaderFields ?? [:]
        let mimeType = fields.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
        return HARArchive.Request(
            method: request.httpMethod ?? "GET", url: request.url.map(url) ?? "", httpVersion: "HTTP/1.1",
            headers: headers(fields, credentialHeaders: credentialHeaders),
            postData: request.httpBody.map {
                HARArchive.PostData(
                    data: rules.redacted(body: $0, credentialHeaders: credentialHeaders),
                    mimeType: mimeType ?? "")
            })
    }

    /// A response and its body (as delivered, after gzip inflation), redacted, `credentialHeaders` too.
    func response(
        _ response: HTTPURLResponse, body: Data, credentialHeaders: Set<String> = []
    ) -> HARArchive.Response {
        let fields = ResponseHeaders(
            Dictionary(
                response.allHeaderFields.compactMap { name, value in
                    (name as? String).map { ($0, "\(value)") }
                }, uniquingKeysWith: { first, _ in first }))
        return HARArchive.Response(
            status: response.statusCode, statusText: HTTPReasonPhrase.phrase(for: response.statusCode),
            httpVersion: "HTTP/1.1", headers: headers(fields.fields, credentialHeaders: credentialHeaders),
            content: HARArchive.Content(
                data: rules.redacted(body: body, credentialHeaders: credentialHeaders),
                mimeType: fields["Content-Type"] ?? ""))
    }

    /// Header fields sorted by name, values redacted by the logger's rules and `credentialHeaders`
    /// (lowercased); a URL in `Location`, `Content-Location` or `Referer` has its secrets removed as a
    /// request's URL does.
    func headers(_ fields: [String: String], credentialHeaders: Set<String> = []) -> [HARArchive.Header] {
        fields.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            HARArchive.Header(
                name: name,
                value: rules.redacted(
                    headerValue: value, of: name, credentialHeaders: credentialHeaders,
                    redactingURL: urlString))
        }
    }

    /// `url` without its fragment, user-info replaced by the marker, and the values of the query items
    /// the rules name replaced by the marker.
    func url(_ url: URL) -> String {
        urlString(url.absoluteString)
    }

    private func urlString(_ string: String) -> String {
        guard var components = URLComponents(string: string) else {
            // Not a URL Foundation parses: keep no part that could hold a secret.
            let beforeQuery = string.prefix { $0 != "?" && $0 != "#" }
            return beforeQuery.contains("@") ? Self.marker : String(beforeQuery)
        }
        components.fragment = nil
        if components.user != nil || components.password != nil {
            // The plain setter percent-encodes the marker; `percentEncodedUser` would trap on it.
            components.user = Self.marker
            components.password = nil
        }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = query.split(separator: "&", omittingEmptySubsequences: false)
                .map(redactedPair).joined(separator: "&")
        }
        return components.string ?? String(string.prefix { $0 != "?" && $0 != "#" })
    }

    /// `name=value` with the value replaced when the rules name the item; percent-encoded both ways.
    private func redactedPair(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        let name = pair[..<equals]
        let decoded = name.removingPercentEncoding ?? String(name)
        if rules.redactsQueryItem(named: decoded) { return name + "=" + Self.encodedMarker }
        let value = String(pair[pair.index(after: equals)...])
        return rules.redactedNestedURL(inQueryValue: value).map {
            name + "=" + NetworkLogger.percentEncodedQueryValue($0)
        } ?? String(pair)
    }
}
