import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Puts `Authorization: Bearer <token>` on every request to its origins and, when the server answers 401,
/// refreshes the token once and replays the request.
///
/// ```swift
/// let authenticator = BearerTokenAuthenticator(accessToken: session.token) { completion in
///     auth.refresh(completion: completion)  // the auth server's answer, as a NetworkError on failure
/// }
/// authenticator.sessionEndedHandler = { _ in Task { @MainActor in signIn.show() } }
/// let network = NetworkLayer(baseURL: api, interceptors: [authenticator])
/// ```
///
/// The token goes only to its origins, one refresh serves every waiting 401, and a rejected refresh
/// ends the session while an unreachable one keeps it: the rules are in <doc:PoliciesAndAuthentication>.
/// `refresh` runs off the main queue in `NetworkLayer` (in place in `DummyNetworkLayer`); call its
/// completion once, from any thread.
public final class BearerTokenAuthenticator: RequestInterceptor, Sendable {
    /// A token and, when known, when it stops working.
    public struct Token: Sendable, Equatable {
        /// The value sent after `Bearer `.
        public var value: String
        /// When the token expires; `nil` when unknown (it is then used until a 401).
        public var expiresAt: Date?

        /// A token.
        ///
        /// - Parameters:
        ///   - value: The value sent after `Bearer `.
        ///   - expiresAt: When it expires, if known.
        public init(_ value: String, expiresAt: Date? = nil) {
            self.value = value
            self.expiresAt = expiresAt
        }
    }

    /// Gets a new token and passes it, or the reason there is none, to `completion`.
    public typealias Refresh =
        @Sendable (
            _ completion: @escaping @Sendable (Result<String, NetworkError>) -> Void
        ) -> Void

    /// Gets a new token with its expiry and passes it, or the reason there is none, to `completion`.
    public typealias TokenRefresh =
        @Sendable (
            _ completion: @escaping @Sendable (Result<Token, NetworkError>) -> Void
        ) -> Void

    /// `refresh` is called only when no refresh was under way: one call at a time.
    private let state: Locked<State>

    private struct State {
        var token: Token?
        /// When ``token`` became the authenticator's, on the layer's clock: its lifetime bounds its refresh
        /// window. A token from the initializer is stamped when the authenticator first reads a clock.
        var tokenSetAt: Date?
        /// The refresh under way (at most one, under ``refreshKey``) and the requests waiting for it; a
        /// late second completion of an old refresh ends no newer one.
        var refreshes = Flights<Int, Result<String, NetworkError>>()
        /// Signed out during the refresh under way: its token is not kept; waiters still get its outcome.
        var signedOutDuringRefresh = false
        var origins: Set<Origin>
        /// A later rejection doesn't tell the app again; a new token starts a new session.
        var sessionEnded = false
        var sessionEndedHandler: (@Sendable (NetworkError) -> Void)?
        /// The first layer's clock; a real clock until a layer hands its own.
        var clock: (any NetworkClock)?
        var account: String?
        /// Held weakly: an authenticator may outlive the layers it was given to.
        var caches: [WeakCache] = []

        /// Forgets the account; returns the removal of its cached replies, to run after the lock.
        mutating func signOut() -> () -> Void {
            let (account, live) = (account, caches.compactMap(\.cache))
            self.account = nil
            caches.removeAll { $0.cache == nil }
            return { if let account { for cache in live { cache.removeAll(forAccount: account) } } }
        }
    }

    /// Whether `origins` came from the caller, so that no layer widens them.
    private let hasOwnOrigins: Bool
    private typealias Waiter = Flights<Int, Result<String, NetworkError>>.Waiter
    /// The one key of ``State/refreshes``: one refresh at a time.
    private static var refreshKey: Int { 0 }
    private let refresh: TokenRefresh
    private let refreshWindow: TimeInterval
    private let refreshTimeout: TimeInterval

    /// An authenticator starting with `accessToken` (`nil`: refresh before the first request).
    ///
    /// - Parameters:
    ///   - accessToken: The token to send until a 401 says it no longer works.
    ///   - origins: The URLs whose origins get the token; `nil`: the base URL of each layer this is given
    ///     to (for a layer without one, the first request's origin; for a call made of several requests,
    ///     such as a resumable upload, its own request's, never a URL a server named).
    ///   - refreshWindow: How long before its expiry a token set with one (through
    ///     ``setAccessToken(_:expiresAt:)``) is refreshed instead of sent; never more than half the token's
    ///     lifetime, its expiry minus when it was set (see <doc:PoliciesAndAuthentication>).
    ///   - refreshTimeout: How long a refresh may take before its waiting requests fail.
    ///   - refresh: Gets a new token; called once per refresh, never while another runs.
    public convenience init(
        accessToken: String?, origins: [URL]? = nil, refreshWindow: TimeInterval = 60,
        refreshTimeout: TimeInterval = 30, refresh: @escaping Refresh
    ) {
        self.init(
            token: accessToken.map { Token($0) }, origins: origins, refreshWindow: refreshWindow,
            refreshTimeout: refreshTimeout
        ) { completion in
            refresh { result in completion(result.map { Token($0) }) }
        }
    }

    /// An authenticator that knows when its tokens expire, and refreshes ahead of it.
    ///
    /// - Parameters:
    ///   - token: The token to start with (`nil`: refresh before the first request).
    ///   - origins: The URLs whose origins get the token; `nil`: the base URL of each layer this is given
    ///     to (for a layer without one, the first request's origin; for a call made of several requests,
    ///     such as a resumable upload, its own request's, never a URL a server named).
    ///   - refreshWindow: How long before a token's expiry it is refreshed instead of sent; never more than
    ///     half the token's lifetime, its expiry minus when it was set (see <doc:PoliciesAndAuthentication>).
    ///   - refreshTimeout: How long a refresh may take before its waiting requests fail.
    ///   - refresh: Gets a new token; called once per refresh, never while another runs.
    public init(
        token: Token?, origins: [URL]? = nil, refreshWindow: TimeInterval = 60,
        refreshTimeout: TimeInterval = 30, refresh: @escaping TokenRefresh
    ) {
        state = Locked(State(token: token, origins: Set((origins ?? []).compactMap(Origin.init))))
        hasOwnOrigins = origins != nil
        self.refreshWindow = refreshWindow.isFinite ? max(0, refreshWindow) : 0
        self.refreshTimeout = refreshTimeout
        self.refresh = refresh
    }

    /// The token requests are sent with now; `nil` before the first refresh, while one runs, after a
    /// rejected one, and after a sign-out.
    public var accessToken: String? { state.withLock { $0.refreshes.count == 0 ? $0.token?.value : nil } }

    /// Called once when a refresh is rejected (the session ended), with its error: show sign-in here.
    /// Runs off the main queue, before the waiting requests get the error; capture the authenticator
    /// weakly. See <doc:PoliciesAndAuthentication> for what counts as rejected.
    public var sessionEndedHandler: (@Sendable (NetworkError) -> Void)? {
        get { state.withLock { $0.sessionEndedHandler } }
        set { state.withLock { $0.sessionEndedHandler = newValue } }
    }

    /// Whether a refresh failing with `error` ends the session: anything but the unreachable errors
    /// (transport, timeout, cancel, 5xx, 408, 429).
    package static func isRejection(_ error: NetworkError) -> Bool {
        switch error {
        case .transport, .timedOut, .cancelled: return false
        case .unacceptableStatusCode(let status, _, _):
            return !(status == 408 || status == 429 || status >= 500)
        default: return true
        }
    }

    /// Replaces the token from outside (sign-in), or forgets it (`nil`, sign-out).
    ///
    /// A token ends a refresh under way: its waiters get the new token. A sign-out during a refresh
    /// leaves its waiters to its outcome (its error, or ``NetworkError/cancelled`` for a token).
    ///
    /// - Parameters:
    ///   - accessToken: The new token, or `nil`.
    ///   - expiresAt: When it expires, if known; a request then refreshes it first once it expires within
    ///     the `refreshWindow` given to the initializer, or within half its lifetime if that is shorter.
    public func setAccessToken(_ accessToken: String?, expiresAt: Date? = nil) {
        // `nil` before a layer handed its clock: the token is stamped on that clock then (``adopt``), not
        // pinned to the system's.
        let now = state.withLock { $0.clock }?.date
        let afterLock = state.withLock { state -> () -> Void in
            state.token = accessToken.map { Token($0, expiresAt: expiresAt) }
            state.tokenSetAt = now
            state.sessionEnded = accessToken == nil
            guard let accessToken else {
                state.signedOutDuringRefresh = true
                return state.signOut()
            }
            let waiters = state.refreshes.land(Self.refreshKey) ?? []
            return { for waiter in waiters { waiter(.success(accessToken)) } }
        }
        afterLock()
    }

    /// Adds the current token, waiting for a refresh that is under way (or starting one without a
    /// token); a request to another origin goes out unchanged.
    ///
    /// - Parameters:
    ///   - request: The attempt's request, as the interceptors before this one left it.
    ///   - completion: Receives the request with `Authorization: Bearer <token>`, or the failed refresh's
    ///     error.
    public func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        guard adoptOrigin(of: request.url) else { return completion(.success(request)) }
        let now = clock.date
        withToken(
            ifUsable: { $0.isUsable(at: now, setAt: $1, refreshWindow: refreshWindow) }, now: now,
            then: { completion($0.map { Self.authorized(request, with: $0) }) })
    }

    /// On a 401 from its origins, replays with a newer token, refreshing first when the request already
    /// had the newest.
    ///
    /// - Parameters:
    ///   - attempt: The failed attempt; only a first 401 is replayed.
    ///   - completion: Receives ``RetryDecision/retry`` once a newer token is there, the refresh's error as
    ///     ``RetryDecision/fail(_:)``, or ``RetryDecision/doNotRetry``.
    public func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard attempt.error.statusCode == 401,
            !attempt.earlierErrors.contains(where: { $0.statusCode == 401 }),
            // The origin that answered: another one's 401 (a redirect target's, which never saw the
            // token) says nothing about the token.
            adoptOrigin(of: attempt.responseURL ?? attempt.request.url)
        else { return completion(.doNotRetry) }
        let header = attempt.request.value(forHTTPHeaderField: "Authorization")
        withToken(
            ifUsable: { token, _ in "Bearer \(token.value)" != header }, now: clock.date,
            then: { result in
                switch result {
                case .success: completion(.retry)
                case .failure(let error): completion(.fail(error))
                }
            })
    }

    /// Takes a layer's origin (unless the caller named the origins), its cache (for sign-out) and, from the
    /// first layer, its clock, which reads token expiry and keeps a refresh's limit.
    func adopt(baseURL: URL?, cache: ResponseCache?, clock: any NetworkClock) {
        let origin = hasOwnOrigins ? nil : baseURL.flatMap(Origin.init)
        state.withLock { state in
            if let origin { state.origins.insert(origin) }
            if let cache { state.caches.append(WeakCache(cache: cache)) }
            if state.clock == nil, state.token != nil { state.tokenSetAt = state.tokenSetAt ?? clock.date }
            state.clock = state.clock ?? clock
        }
    }

    private var clock: any NetworkClock {
        state.withLock { state in
            let clock = state.clock ?? SystemClock()
            state.clock = clock
            return clock
        }
    }

    /// Makes `url`'s origin the token's when none was given or adopted yet: a layer's first request, or
    /// the request of a call made of several, whose later steps may go to URLs a server named (see
    /// ``NetworkLayer/adoptCredentialOrigin(of:)``).
    ///
    /// - Returns: Whether the token goes to `url`, as ``sendsToken(to:)`` says.
    @discardableResult func adoptOrigin(of url: URL?) -> Bool {
        guard let origin = url.flatMap(Origin.init) else { return false }
        return state.withLock { state in
            if state.origins.isEmpty && !hasOwnOrigins { state.origins.insert(origin) }
            return state.origins.contains(origin)
        }
    }

    /// Whether the token goes to `url`: its origin is one of the token's. Adopts none.
    func sendsToken(to url: URL?) -> Bool {
        guard let origin = url.flatMap(Origin.init) else { return false }
        return state.withLock { $0.origins.contains(origin) }
    }

    /// Tells `then` the current token if no refresh runs and `usable` accepts it (given when it was set);
    /// else `then` joins the refresh under way or one started now, under the same lock: a refresh ending in
    /// between can't start another.
    private func withToken(
        ifUsable usable: (Token, _ setAt: Date) -> Bool, now: Date, then: @escaping Waiter
    ) {
        let (current, begins): (String?, Int?) = state.withLock { state in
            if state.refreshes.count == 0, let token = state.token {
                let setAt = state.tokenSetAt ?? now
                state.tokenSetAt = setAt
                if usable(token, setAt) { return (token.value, nil) }
            }
            let seat = state.refreshes.join(Self.refreshKey, then)
            guard seat.isFirst else { return (nil, nil) }
            state.signedOutDuringRefresh = false
            return (nil, seat.flight)
        }
        if let number = begins {
            let deadline = Deadline(seconds: refreshTimeout, on: clock) { [self] in
                finishRefresh(number, with: .failure(.timedOut))
            }
            // In place, not on another queue: the layer already calls the hooks off the main queue, and
            // a refresh that completes synchronously (a test double's) completes the request synchronously.
            refresh { [self] result in
                if deadline.claim() { finishRefresh(number, with: result) }
            }
        }
        if let current { then(.success(current)) }
    }

    private func finishRefresh(_ number: Int, with result: Result<Token, NetworkError>) {
        let now = clock.date
        var outcome = result.map(\.value)
        var endSession = {}
        let waiters = state.withLock { state -> [Waiter] in
            // A second call of this refresh's completion, maybe while a later refresh runs.
            guard let waiters = state.refreshes.land(Self.refreshKey, flight: number) else { return [] }
            switch result {
            case .success(let token) where !state.signedOutDuringRefresh:
                state.token = token
                state.tokenSetAt = now
                state.sessionEnded = false
            case .success:
                // The app signed out meanwhile: its sign-out stands, and the requests it left end.
                outcome = .failure(.cancelled)
            case .failure(let error) where Self.isRejection(error):
                state.token = nil
                guard !state.sessionEnded else { break }
                state.sessionEnded = true
                // A rejected refresh signs the user out: the account's stored replies go with the token.
                let (signOut, handler) = (state.signOut(), state.sessionEndedHandler)
                endSession = {
                    signOut()
                    handler?(error)
                }
            case .failure: break
            }
            return waiters
        }
        endSession()
        for waiter in waiters { waiter(outcome) }
    }

    private static func authorized(_ request: URLRequest, with token: String) -> URLRequest {
        var request = request
        request.setHeaderFields([(name: "Authorization", value: "Bearer \(token)")])
        return request
    }
}

// MARK: - The account

extension BearerTokenAuthenticator {
    /// Who the token is for (a user ID, say): it partitions the layer's cache (see <doc:CachingAndOffline>).
    /// A sign-out forgets it and removes its replies from the caches of the layers it was given to.
    public var account: String? {
        get { state.withLock { $0.account } }
        set { state.withLock { $0.account = newValue } }
    }

    /// Replaces the token and names the account it is for: a sign-in.
    ///
    /// - Parameters:
    ///   - accessToken: The new token.
    ///   - expiresAt: When it expires, if known.
    ///   - account: Who the token is for; see ``account``.
    public func setAccessToken(_ accessToken: String, expiresAt: Date? = nil, account: String) {
        self.account = account
        setAccessToken(accessToken, expiresAt: expiresAt)
    }
}

private struct WeakCache: Sendable {
    weak var cache: ResponseCache?
}
