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
    /// Whether two bodies are the same: the same bytes, or the same JSON value (keys in any order,
    /// whitespace aside).
    static func same(_ recorded: Data, _ sent: Data) -> Bool {
        if recorded == sent { return true }
        guard let left = canonicalJSON(recorded), let right = canonicalJSON(sent) else { return false }
        return left == right
    }

    private static func canonicalJSON(_ data: Data) -> Data? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
}
