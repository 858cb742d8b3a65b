import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the inspector writes URLs, headers and bodies: as ``NetworkLogger`` redacts them
/// (the layer's one credential list, and the request's layer's own names), or as they are when the app
/// turned redaction off for local debugging.
struct Redactor: Sendable {
    /// `nil` when redaction is off.
    private let logger: NetworkLogger?

    /// Whether secrets are hidden: curl commands then take the logger's form.
    var redacts: Bool { logger != nil }

    init(redacts: Bool) {
        logger = redacts ? NetworkLogger(level: .full, sink: { _ in }) : nil
    }

    func url(_ url: URL?) -> String {
        guard let logger else { return url?.absoluteString ?? "" }
        return url == nil ? "" : logger.redacted(url)
    }

    /// The fields sorted by name, in any case, their values redacted.
    func headers(_ fields: some Sequence<(key: String, value: String)>, credentialHeaders: Set<String>)
        -> [HeaderField]
    {
        var shown = fields.map { name, value in
            HeaderField(
                name: name,
                value: logger?.redacted(headerValue: value, of: name, credentialHeaders: credentialHeaders)
                    ?? value)
        }
        shown.sort { $0.name.lowercased() < $1.name.lowercased() }
        return shown
    }

    func body(_ body: Data, credentialHeaders: Set<String>) -> Data {
        logger?.redacted(body: body, credentialHeaders: credentialHeaders) ?? body
    }
}
