import Foundation

/// Everything about one request: what to send, and what its reply becomes.
///
/// Every request method of ``NetworkLayer`` builds one and hands it to
/// ``NetworkLayer/send(_:successHandler:errorHandler:)``, so what no convenience method expresses is one
/// `NetworkRequest` away:
///
/// ```swift
/// var request = NetworkRequest<[Item]>(urlString: "items")
/// request.queryItems = [URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "ids", value: "2")]
/// request.timeout = 5
/// ```
///
/// `Value` is what the reply becomes: a `Decodable` type decoded from JSON, `Data` as the bytes arrived,
/// or ``EmptyResponse`` for any 2xx reply.
public struct NetworkRequest<Value> {
    /// The HTTP method.
    public var method: HTTPMethod
    /// An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    public var urlString: String
    /// Query parameters, percent-encoded and sorted by name.
    public var query: [String: String]
    /// More query items, appended after ``query`` in this order; a name may repeat (`ids=1&ids=2`).
    public var queryItems: [URLQueryItem]
    /// Headers for this request; they override the layer's default headers.
    public var headers: [String: String]
    /// The body.
    public var body: RequestBody
    /// Seconds this request may wait for data; `nil` uses the layer's timeout.
    public var timeout: TimeInterval?
    /// Seconds this request may take in all, retries and token refreshes included, before it fails with
    /// ``NetworkError/timedOut``; `.infinity` for no limit. `nil` (or zero, negative, NaN) uses the layer's
    /// ``NetworkLayer/resourceTimeout`` for a reply in memory, and no limit for transfers and streams.
    public var resourceTimeout: TimeInterval?
    /// The most bytes the reply may have (after gzip inflation); `nil` uses the layer's
    /// ``NetworkLayer/maximumResponseSize``.
    public var maximumResponseSize: Int?
    /// The media types a 2xx reply may have (`application/json`, `image/*`); `nil` accepts any. Another type
    /// fails with ``NetworkError/unacceptableContentType(_:body:headers:)``.
    public var acceptableContentTypes: [String]?
    /// When this request is sent again after a failure; `nil` uses the layer's
    /// ``NetworkLayer/retryPolicy``. (Write `RetryPolicy.none` for none: `.none` alone is `nil` here.)
    public var retryPolicy: RetryPolicy?
    /// The statuses that count as success; `nil` accepts `200..<300`. An accepted status is decoded like a
    /// 2xx, so a 404 can be a value: `request.acceptableStatusCodes = Set(200..<300).union([404])`.
    /// Downloads ignore it.
    public var acceptableStatusCodes: Set<Int>?
    /// Which redirects this request follows; `nil` uses the layer's ``NetworkLayer/redirectPolicy``. A
    /// refused redirect whose status is in ``acceptableStatusCodes`` reaches the success handler.
    public var redirectPolicy: RedirectPolicy?
    /// Interceptors for this request alone, run after the layer's ``NetworkLayer/interceptors``.
    public var interceptors: [any RequestInterceptor] = []
    /// Monitors for this request alone, told after the layer's ``NetworkLayer/monitors``, on the same queue.
    public var monitors: [any NetworkMonitor] = []
    /// How this request uses the layer's ``ResponseCache``; ``CachePolicy/useProtocolCachePolicy`` (RFC
    /// 9111) by default. Only `GET` requests without a body use the cache.
    public var cachePolicy: CachePolicy = .useProtocolCachePolicy
    /// Who this request is for, such as a user ID; `nil` uses the authenticator's or
    /// ``NetworkLayer/account``. Picks the cache partition, whatever the token; see <doc:CachingAndOffline>.
    public var account: String?
    /// How soon this request goes out when requests wait for a server: ``RequestPriority/default``
    /// unless set. A waiting request's ``NetworkTask/priority`` can still change.
    public var priority = RequestPriority.default
    /// Whether this request shares, waits for a server's rate limit and counts against the per-origin
    /// budget; `nil` uses the layer's ``NetworkLayer/scheduling``.
    public var scheduling: RequestScheduling?

    /// How a stream of this request behaves (reconnection, idle timeout, event size); `nil` uses
    /// ``ServerSentEventsOptions/default``. The options passed to a `stream` call win over these.
    public var streamOptions: ServerSentEventsOptions?

    /// Where the `async` `stream` wants its elements, straight from the transport; test doubles ignore it.
    package var streamConsumer: (any Sendable)?

    /// Set by the `async` forms, whose handlers only resume the awaiting code: the call delivers immediately
    /// (as under ``NetworkLayer/deliversImmediately``), never waiting for the callback queue.
    package var deliversImmediately = false

    /// Set on the request the layer sends itself to refresh a reply served `stale-while-revalidate`.
    var isRevalidation = false

    /// The endpoint this request was made from, if any; its path must stay below the base URL.
    package var endpoint: (any Endpoint)?
    /// What makes this request a download or an upload; `nil` for an ordinary request.
    package var transfer: TransferDescription?
    /// Set on an upload from a file that is sent resumably (see ``ResumableUpload``).
    package var resumable: ResumableUpload?
    /// Set by a ``TransferStore`` on a resumable upload it keeps: told the upload URL and each offset.
    package var uploadJournal: (any UploadJournal)?
    /// Told how far a download or upload has come, on the callback queue, at most ~30 times a second, every
    /// call before the handler (or before the `async` form returns); ignored by other requests.
    public var progressHandler: ((TransferProgress) -> Void)?
    var decoding: @Sendable (JSONDecoder) -> ResponseDecoding<Value>
}

extension NetworkRequest where Value: Decodable & SendableMetatype {
    /// A request whose reply becomes a `Value`: decoded from JSON, the raw bytes for `Data`, or any 2xx
    /// reply for ``EmptyResponse``.
    ///
    /// - Parameters:
    ///   - method: The HTTP method; GET by default.
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - queryItems: More query items, appended after `query` in order; names may repeat.
    ///   - headers: Headers for this request; they override the layer's default headers.
    ///   - body: The body; none by default.
    ///   - timeout: Seconds to wait for data; `nil` uses the layer's timeout.
    ///   - maximumResponseSize: The most bytes the reply may have; `nil` uses the layer's limit.
    ///   - acceptableContentTypes: The media types a 2xx reply may have; `nil` accepts any.
    ///   - type: The type the reply becomes; usually inferred from the handler.
    public init(
        method: HTTPMethod = .get,
        urlString: String,
        query: [String: String] = [:],
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody = .empty,
        timeout: TimeInterval? = nil,
        maximumResponseSize: Int? = nil,
        acceptableContentTypes: [String]? = nil,
        decoding type: Value.Type = Value.self
    ) {
        self.method = method
        self.urlString = urlString
        self.query = query
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.acceptableContentTypes = acceptableContentTypes
        decoding = { ResponseDecoding.decoding($0) }
    }

    /// The request an endpoint describes, its reply becoming a `Value`.
    ///
    /// The path must stay below the base URL: an absolute URL, `//host` or `..` fails with
    /// ``NetworkError/invalidURL(_:)``.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body and limits, and its retry policy.
    ///   - type: The type the reply becomes; usually inferred from the handler.
    public init(_ endpoint: any Endpoint, decoding type: Value.Type = Value.self) {
        self.init(
            method: endpoint.method, urlString: endpoint.path, query: endpoint.query,
            headers: endpoint.headers,
            body: endpoint.body, timeout: endpoint.timeout, maximumResponseSize: endpoint.maximumResponseSize,
            acceptableContentTypes: endpoint.acceptableContentTypes)
        self.endpoint = endpoint
        retryPolicy = endpoint.retryPolicy
        cachePolicy = endpoint.cachePolicy
    }
}
