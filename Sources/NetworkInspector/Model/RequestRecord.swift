import Foundation

/// One request as the page shows it (the contract's Request object): kept up to date as its events
/// arrive, and sent to the tabs whole at each change. Times are milliseconds since the inspector started.
struct RequestRecord: Encodable, Sendable {
    /// One stretch of the request's life on the waterfall.
    struct Phase: Encodable, Sendable, Equatable {
        /// `queued`, `policies`, `wire`, `decoding` or `delivered`.
        let name: String
        let start: Double
        let end: Double
    }

    /// One attempt: the first, or a retry.
    struct Attempt: Encodable, Sendable {
        let number: Int
        var start: Double
        @Nullable var end: Double?
        @Nullable var status: Int?
        @Nullable var error: String?
        /// `[name, value]` pairs, as redaction leaves them.
        var requestHeaders: [HeaderField]
        var responseHeaders: [HeaderField] = []
        /// Written when a page reads it.
        var curl: CurlCommand
        /// Milliseconds until the next attempt, when this one failed and is retried.
        @Nullable var retryDelay: Double?
    }

    let id: String
    /// The label of the monitor the request's layer was given, or "".
    let layer: String
    var method: String
    var url: String
    @Nullable var status: Int?
    @Nullable var error: String?
    var start: Double
    @Nullable var end: Double?
    var bytesSent = 0
    var bytesReceived = 0
    var cache = "network"
    @Nullable var cacheReason: String?
    var sharedBy = 1
    var retries = 0
    var queuedBudget: Double = 0
    var queuedRateLimit: Double = 0
    var waitingOnPolicies: Double = 0
    @Nullable var account: String?
    var phases: [Phase] = []
    var attempts: [Attempt] = []
    @Nullable var requestBody: BodyRecord?
    @Nullable var responseBody: BodyRecord?

    init(id: String, layer: String, method: String, url: String, start: Double, account: String?) {
        self.id = id
        self.layer = layer
        self.method = method
        self.url = url
        self.start = start
        self.account = account
    }

    /// The bytes the record holds besides its fixed fields, near enough: for the memory test and the
    /// article's cost figures.
    var keptBytes: Int {
        let headers = attempts.reduce(0) { total, attempt in
            (attempt.requestHeaders + attempt.responseHeaders).reduce(total) {
                $0 + $1.name.utf8.count + $1.value.utf8.count
            }
        }
        return url.utf8.count + headers + (requestBody?.kept.count ?? 0) + (responseBody?.kept.count ?? 0)
    }
}
