import Foundation
import NetworkLayer

/// A request reduced to what replay compares: method, URL and body. Both what an archive recorded and
/// what a test double received become one, so they compare alike.
struct ReplayRequest: Sendable {
    /// What can differ between a sent request and a recorded one.
    enum Aspect: String, Sendable, CaseIterable {
        case method, host, path, query, body
    }

    /// In upper case.
    let method: String
    let url: ReplayURL
    let body: Data
    /// `METHOD URL`, for messages.
    let description: String

    init(method: String, url: String, body: Data) {
        self.method = method.uppercased()
        self.url = ReplayURL(url)
        self.body = body
        description = "\(self.method) \(url)"
    }

    /// What an archive recorded.
    init(_ entry: HARArchive.Entry) {
        self.init(
            method: entry.request.method, url: entry.request.url, body: entry.request.postData?.data ?? Data()
        )
    }

    /// What reached a ``StubTransport``.
    init(_ request: RecordedRequest) {
        self.init(
            method: request.method.rawValue, url: request.url.absoluteString, body: request.body ?? Data())
    }

    /// What reached a ``MockServer``, whose URLs have no origin to compare.
    init(_ request: MockServerRequest) {
        self.init(method: request.method, url: request.target, body: request.body)
    }

    /// How a `recorded` request differs from this one, the sent one. The host is compared only when
    /// `comparingHost`, the body only when `comparingBody`.
    func differences(from recorded: ReplayRequest, comparingHost: Bool, comparingBody: Bool) -> Set<Aspect> {
        var aspects: Set<Aspect> = []
        if method != recorded.method { aspects.insert(.method) }
        if comparingHost, url.origin != recorded.url.origin { aspects.insert(.host) }
        if url.path != recorded.url.path { aspects.insert(.path) }
        if !ReplayQuery.matches(recorded: recorded.url.query, sent: url.query) { aspects.insert(.query) }
        if comparingBody, !ReplayBody.same(recorded.body, body) { aspects.insert(.body) }
        return aspects
    }
}

/// Bodies compared for replay.
enum ReplayBody {
    /// Whether two bodies are the same: the same bytes, the same JSON value (keys in any order,
    /// whitespace aside), or the same form fields in the same order. A value the recorder redacted
    /// (``HARRedactor/marker``) stands for any value, as a redacted query value does: a recorded login
    /// replays for the password the test sends.
    static func same(_ recorded: Data, _ sent: Data) -> Bool {
        if recorded == sent { return true }
        if let left = json(recorded), let right = json(sent) { return matches(recorded: left, sent: right) }
        if let left = formFields(recorded), let right = formFields(sent), left.count == right.count {
            return zip(left, right).allSatisfy { recorded, sent in
                recorded == sent || (recorded.name == sent.name && recorded.value == HARRedactor.marker)
            }
        }
        return false
    }

    private static func json(_ data: Data) -> Any? {
        try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    private static func matches(recorded: Any, sent: Any) -> Bool {
        if let text = recorded as? String, text == HARRedactor.marker { return true }
        switch (recorded, sent) {
        case (let left as [String: Any], let right as [String: Any]):
            return left.count == right.count
                && left.allSatisfy { key, value in
                    right[key].map { matches(recorded: value, sent: $0) } ?? false
                }
        case (let left as [Any], let right as [Any]):
            return left.count == right.count
                && zip(left, right).allSatisfy { matches(recorded: $0, sent: $1) }
        default:
            return scalar(recorded) == scalar(sent)
        }
    }

    private static func scalar(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
    }

    /// `name=value` pairs of a form body, as written; `nil` for a body that isn't one.
    private static func formFields(_ data: Data) -> [(name: Substring, value: Substring)]? {
        guard let text = String(data: data, encoding: .utf8), text.contains("="),
            !text.contains(where: \.isWhitespace)
        else { return nil }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (pair, "") }
            return (pair[..<equals], pair[pair.index(after: equals)...])
        }
    }
}
