import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Puts `Authorization: Bearer <token>` on every request and, when the server answers 401, refreshes the
/// token once and replays the request.
///
/// ```swift
/// let authenticator = BearerTokenAuthenticator(accessToken: session.token) { completion in
///     auth.refresh { newToken in completion(newToken.map { .success($0) } ?? .failure("Signed out")) }
/// }
/// let network = NetworkLayer(baseURL: api, interceptors: [authenticator])
/// ```
///
/// - **Single flight.** However many requests fail with 401 at once, `refresh` runs once; they all
///   replay with the new token. Requests that start while it runs wait for it instead of sending the
///   old token. Without a token, the first request refreshes before it is sent.
/// - **A failed refresh** ends every waiting request with the refresh's error and forgets the token, so
///   the next request refreshes again instead of sending a dead one.
/// - **No loops.** A replay that gets 401 again ends with that 401. A 401 for a request sent with an
///   older token than the current one replays with the current token, without a new refresh.
///
/// `refresh` is called where the layer adapts or decides about a request: on a background queue in
/// `NetworkLayer`, in place in `DummyNetworkLayer`. Call its completion once, from any thread, at once or
/// later; a second call is ignored.
public final class BearerTokenAuthenticator: RequestInterceptor, @unchecked Sendable {
    /// Gets a new token and passes it, or the reason there is none, to `completion`.
    public typealias Refresh = (_ completion: @escaping (Result<String, NetworkError>) -> Void) -> Void

    // Guarded by `lock`. `refresh` is called only while `isRefreshing` was false, so one call at a time.
    private let lock = NSLock()
    private var token: String?
    private var isRefreshing = false
    /// Counts refreshes, so that a late second call of an old refresh's completion can't end a newer one.
    private var refreshNumber = 0
    private var waiting: [Waiter] = []
    private typealias Waiter = @Sendable (Result<String, NetworkError>) -> Void
    private let refresh: UncheckedSendable<Refresh>

    /// An authenticator starting with `accessToken` (`nil`: refresh before the first request).
    ///
    /// - Parameters:
    ///   - accessToken: The token to send until a 401 says it no longer works.
    ///   - refresh: Gets a new token; called once per refresh, never while another runs.
    public init(accessToken: String?, refresh: @escaping Refresh) {
        token = accessToken
        self.refresh = UncheckedSendable(value: refresh)
    }

    /// The token requests are sent with now; `nil` before the first refresh or after a failed one.
    public var accessToken: String? { lock.withLock { isRefreshing ? nil : token } }

    /// Adds the current token, waiting for a refresh that is under way (or starting one without a token).
    ///
    /// - Parameters:
    ///   - request: The attempt's request, as the interceptors before this one left it.
    ///   - completion: Receives the request with `Authorization: Bearer <token>`, or the failed refresh's
    ///     error.
    public func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        let afterRefresh: Waiter = { result in completion(result.map { Self.authorized(request, with: $0) }) }
        if let current = token(ifUsable: { _ in true }, orAfterRefresh: afterRefresh) {
            completion(.success(Self.authorized(request, with: current)))
        }
    }

    /// On a 401, replays with a newer token, refreshing first when the request already had the newest.
    ///
    /// - Parameters:
    ///   - attempt: The failed attempt; only a first 401 is replayed.
    ///   - completion: Receives ``RetryDecision/retry`` once a newer token is there, the refresh's error as
    ///     ``RetryDecision/fail(_:)``, or ``RetryDecision/doNotRetry``.
    public func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard attempt.error.statusCode == 401,
            !attempt.earlierErrors.contains(where: { $0.statusCode == 401 })
        else { return completion(.doNotRetry) }
        let sent = Self.token(of: attempt.request)
        let afterRefresh: Waiter = { result in
            switch result {
            case .success: completion(.retry)
            case .failure(let error): completion(.fail(error))
            }
        }
        if token(ifUsable: { $0 != sent }, orAfterRefresh: afterRefresh) != nil { completion(.retry) }
    }

    /// The current token when no refresh runs and `usable` accepts it; otherwise `nil`, and `then` gets
    /// the outcome of the refresh under way, or of one started now. Looking and joining happen under one
    /// lock, so a refresh that ends in between can't make a request start another.
    private func token(ifUsable usable: (String) -> Bool, orAfterRefresh then: @escaping Waiter) -> String? {
        let (current, begins): (String?, Int?) = lock.withLock {
            if !isRefreshing, let token, usable(token) { return (token, nil) }
            waiting.append(then)
            guard !isRefreshing else { return (nil, nil) }
            isRefreshing = true
            refreshNumber += 1
            return (nil, refreshNumber)
        }
        if let number = begins {
            // In place, not on another queue: the layer already calls the hooks off the main queue, and
            // a refresh that completes synchronously (a test double's) completes the request synchronously.
            refresh.value { [self] result in finishRefresh(number, with: result) }
        }
        return current
    }

    private func finishRefresh(_ number: Int, with result: Result<String, NetworkError>) {
        let waiters: [Waiter] = lock.withLock {
            // A second call of this refresh's completion, maybe while a later refresh runs.
            guard isRefreshing, number == refreshNumber else { return [] }
            isRefreshing = false
            token = try? result.get()
            defer { waiting = [] }
            return waiting
        }
        for waiter in waiters { waiter(result) }
    }

    private static func authorized(_ request: URLRequest, with token: String) -> URLRequest {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    private static func token(of request: URLRequest) -> String? {
        guard let value = request.value(forHTTPHeaderField: "Authorization"), value.hasPrefix("Bearer ")
        else {
            return nil
        }
        return String(value.dropFirst("Bearer ".count))
    }
}
