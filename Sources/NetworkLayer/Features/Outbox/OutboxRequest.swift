import Foundation

/// A write to send later through an ``Outbox``: a `POST`, `PUT`, `PATCH` or `DELETE`, its body already
/// encoded when it is enqueued.
///
/// ```swift
/// let request = OutboxRequest(.post, "messages", body: .json(draft), kind: "message.send", account: userID)
/// let id = try outbox.enqueue(request)
/// ```
///
/// Stored as written: ``headers`` must carry no credential (``Outbox/enqueue(_:)`` refuses one), and a
/// query item with a secret (`?api_key=`) would be on disk; add both at send time with an interceptor.
public struct OutboxRequest {
    /// The HTTP method: `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: HTTPMethod
    /// A path resolved against the base URL of the layer that delivers it (so a relaunch may point it
    /// elsewhere), or an absolute `http`/`https` URL.
    public var urlString: String
    /// Query parameters, percent-encoded and sorted by name.
    public var query: [String: String]
    /// Headers stored with the item and sent with every attempt. None may carry a credential (the layer's
    /// list: `Authorization`, `Cookie`, `X-Api-Key`, ``RedirectPolicy/credentialHeaders``, …):
    /// ``Outbox/enqueue(_:)`` refuses them with ``OutboxError/credentialHeaders(_:)``. An interceptor
    /// (``BearerTokenAuthenticator`` for a token) adds credentials at send time.
    public var headers: [String: String]
    /// The body, encoded when the request is enqueued (``RequestBody/json(_:)`` with ``OutboxOptions/encoder``, by default the layer's).
    public var body: RequestBody
    /// What the write is, for routing its outcome after a relaunch, when no closure survives:
    /// `"message.send"`, `"like"`.
    public var kind: String
    /// Who the write is for; it is never sent while the layer is signed in as someone else.
    /// ``Account/current`` (the default) is read when the write is enqueued; ``Account/any`` lets it go out
    /// as anyone.
    public var account: Account
    /// Seconds after which an undelivered item expires (it becomes a dead letter); `nil` uses the
    /// outbox's ``OutboxOptions/timeToLive``.
    public var timeToLive: TimeInterval?

    /// A write to send later.
    ///
    /// - Parameters:
    ///   - method: `POST`, `PUT`, `PATCH` or `DELETE`.
    ///   - urlString: A path below the delivering layer's base URL, or an absolute URL.
    ///   - query: Query parameters.
    ///   - headers: Headers sent with every attempt; none may carry a credential.
    ///   - body: The body.
    ///   - kind: What the write is, for routing its outcome after a relaunch.
    ///   - account: Who the write is for: the account signed in when it is enqueued by default, a named
    ///     one, or ``Account/any``.
    public init(
        _ method: HTTPMethod, _ urlString: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: RequestBody = .empty, kind: String, account: Account = .current
    ) {
        self.method = method
        self.urlString = urlString
        self.query = query
        self.headers = headers
        self.body = body
        self.kind = kind
        self.account = account
    }

    /// The write an endpoint describes: its method, path, query, headers and body.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its method must be `POST`, `PUT`, `PATCH` or `DELETE`.
    ///   - kind: What the write is, for routing its outcome after a relaunch.
    ///   - account: Who the write is for: the account signed in when it is enqueued by default, a named
    ///     one, or ``Account/any``.
    public init(_ endpoint: any Endpoint, kind: String, account: Account = .current) {
        self.init(
            endpoint.method, endpoint.path, query: endpoint.query, headers: endpoint.headers,
            body: endpoint.body, kind: kind, account: account)
    }

    /// A write for the account `account` names; kept so that `account: userID` compiles as before.
    ///
    /// - Parameters:
    ///   - method: `POST`, `PUT`, `PATCH` or `DELETE`.
    ///   - urlString: A path below the delivering layer's base URL, or an absolute URL.
    ///   - query: Query parameters.
    ///   - headers: Headers sent with every attempt; none may carry a credential.
    ///   - body: The body.
    ///   - kind: What the write is, for routing its outcome after a relaunch.
    ///   - account: The account's identifier; `nil` is ``Account/current`` (no longer "anyone": say
    ///     ``Account/any`` for that).
    public init(
        _ method: HTTPMethod, _ urlString: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: RequestBody = .empty, kind: String, account: String?
    ) {
        self.init(
            method, urlString, query: query, headers: headers, body: body, kind: kind,
            account: Account(account))
    }

    /// The write an endpoint describes, for the account `account` names; kept so that `account: userID`
    /// compiles as before.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its method must be `POST`, `PUT`, `PATCH` or `DELETE`.
    ///   - kind: What the write is, for routing its outcome after a relaunch.
    ///   - account: The account's identifier; `nil` is ``Account/current``.
    public init(_ endpoint: any Endpoint, kind: String, account: String?) {
        self.init(endpoint, kind: kind, account: Account(account))
    }
}
