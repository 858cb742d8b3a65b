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
/// `refresh` runs on a background queue; call its completion once, from any thread.
public final class BearerTokenAuthenticator: RequestInterceptor, @unchecked Sendable {
    public typealias Refresh = (_ completion: @escaping (Result<String, NetworkError>) -> Void) -> Void

    // Guarded by `lock`. `refresh` is called only while `isRefreshing` was false, so one call at a time.
    private let lock = NSLock()
    private var token: String?
    private var isRefreshing = false
    private var generation = 0
    private var waiting: [@Sendable (Result<String, NetworkError>) -> Void] = []
    private let refresh: UncheckedSendable<Refresh>

    /// An authenticator starting with `accessToken` (`nil`: refresh before the first request).
    ///
    /// - Parameters:
    ///   - accessToken: The token to send until a 401 says it no longer works.
    ///   - refresh: Gets a new token; called once per refresh, on a background queue.
    public init(accessToken: String?, refresh: @escaping Refresh) {
        token = accessToken
        self.refresh = UncheckedSendable(value: refresh)
    }

    /// The token requests are sent with now; `nil` before the first refresh or after a failed one.
    public var accessToken: String? { lock.withLock { isRefreshing ? nil : token } }

    /// Adds the current token, waiting for a refresh that is under way (or starting one without a token).
    public func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        withToken(newerThan: nil) { result in completion(result.map { Self.authorized(request, with: $0) }) }
    }

    /// On a 401, replays with a newer token, refreshing first when the request already had the newest.
    public func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard attempt.error.statusCode == 401,
            !attempt.earlierErrors.contains(where: { $0.statusCode == 401 })
        else { return completion(.doNotRetry) }
        let sent = Self.token(of: attempt.request) ?? ""
        withToken(newerThan: sent) { result in
            switch result {
            case .success: completion(.retry)
            case .failure(let error): completion(.fail(error))
            }
        }
    }

    /// Runs `then` with a token other than `stale` (`nil`: any token): the current one when there is one
    /// and no refresh is under way, else the outcome of the refresh under way, or of one it starts. All
    /// decided under one lock, so a refresh that ends meanwhile is never followed by a needless second.
    private func withToken(
        newerThan stale: String?, then: @escaping @Sendable (Result<String, NetworkError>) -> Void
    ) {
        enum Next {
            case use(String)
            case wait
            case refresh(generation: Int)
        }
        let next: Next = lock.withLock {
            if !isRefreshing, let token, token != stale { return .use(token) }
            waiting.append(then)
            guard !isRefreshing else { return .wait }
            isRefreshing = true
            generation += 1
            return .refresh(generation: generation)
        }
        switch next {
        case .use(let token):
            then(.success(token))
        case .wait:
            break
        case .refresh(let generation):
            let refresh = self.refresh
            DispatchQueue.global(qos: .userInitiated).async {
                refresh.value { [self] result in finishRefresh(generation, with: result) }
            }
        }
    }

    private func finishRefresh(_ generation: Int, with result: Result<String, NetworkError>) {
        let waiters: [@Sendable (Result<String, NetworkError>) -> Void] = lock.withLock {
            // A second call of the completion, or one for an older refresh, changes nothing.
            guard isRefreshing, generation == self.generation else { return [] }
            isRefreshing = false
            token = try? result.get()
            defer { waiting = [] }
            return waiting
        }
        guard !waiters.isEmpty else { return }
        // Off whatever thread the app completed on (maybe the main one): the next interceptors and the
        // send run where adapting runs.
        DispatchQueue.global(qos: .userInitiated).async {
            for waiter in waiters { waiter(result) }
        }
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
