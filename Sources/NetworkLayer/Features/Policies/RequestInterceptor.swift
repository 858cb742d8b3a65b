import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stage of the pipeline that can change each attempt of a request before it is sent, and ask for
/// another attempt after one fails: authentication, signing, custom retry rules.
///
/// Interceptors run in the order given to the layer; both hooks have defaults:
///
/// ```swift
/// struct AppVersionHeader: RequestInterceptor {
///     func adapt(_ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void) {
///         var request = request
///         request.setValue("3.2", forHTTPHeaderField: "X-App-Version")
///         completion(.success(request))
///     }
/// }
/// ```
public protocol RequestInterceptor: Sendable {
    /// Changes `request` before each attempt is sent, off the main queue, after the interceptors before
    /// this one. Call `completion` once, from any thread, within the request's timeout (then
    /// ``NetworkError/timedOut``); a failure ends the request.
    ///
    /// - Parameters:
    ///   - request: The attempt's request, as the interceptors before this one left it.
    ///   - completion: Receives the request to send, or the error that ends the request.
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void)

    /// Decides whether a failed attempt is sent again; the first interceptor asking for a retry or a
    /// failure wins, else the ``RetryPolicy`` decides. Call `completion` once, within the request's timeout.
    ///
    /// - Parameters:
    ///   - attempt: The failed attempt: the request as sent, its error, its number and the earlier errors.
    ///   - completion: Receives the decision.
    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void)
}

extension RequestInterceptor {
    /// Sends the request as it is.
    ///
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - completion: Receives `request`, unchanged.
    public func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        completion(.success(request))
    }

    /// Leaves the decision to the next interceptor, or the retry policy.
    ///
    /// - Parameters:
    ///   - attempt: The failed attempt.
    ///   - completion: Receives ``RetryDecision/doNotRetry``.
    public func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        completion(.doNotRetry)
    }
}

/// An attempt that failed, as interceptors see it.
public struct FailedAttempt: Sendable {
    /// The request as it was sent, after every interceptor adapted it.
    public let request: URLRequest
    /// Why it failed.
    public let error: NetworkError
    /// Which attempt it was: 1 for the first.
    public let number: Int
    /// The errors of the attempts before it, oldest first (so an authenticator sees a replay failed again).
    public let earlierErrors: [NetworkError]
    /// The URL that answered, after redirects; `nil` when no reply arrived.
    public let responseURL: URL?

    /// An attempt answered from the request's own URL; for test doubles and interceptor tests.
    ///
    /// - Parameters:
    ///   - request: The request as it was sent.
    ///   - error: Why it failed.
    ///   - number: Which attempt it was: 1 for the first.
    ///   - earlierErrors: The errors of the attempts before it, oldest first.
    public init(request: URLRequest, error: NetworkError, number: Int, earlierErrors: [NetworkError] = []) {
        self.init(
            request: request, error: error, number: number, earlierErrors: earlierErrors,
            responseURL: request.url)
    }

    /// An attempt a reply from `responseURL` ended: after a redirect, another URL than the request's.
    ///
    /// - Parameters:
    ///   - request: The request as it was sent.
    ///   - error: Why it failed.
    ///   - number: Which attempt it was: 1 for the first.
    ///   - earlierErrors: The errors of the attempts before it, oldest first.
    ///   - responseURL: The URL that answered, after any redirects; `nil` when no reply arrived.
    public init(
        request: URLRequest, error: NetworkError, number: Int, earlierErrors: [NetworkError] = [],
        responseURL: URL?
    ) {
        self.request = request
        self.error = error
        self.number = number
        self.earlierErrors = earlierErrors
        self.responseURL = responseURL
    }
}

/// What an interceptor decides about a failed attempt.
public enum RetryDecision: Sendable {
    /// Send the request again now (through every interceptor's `adapt` again).
    case retry
    /// Send the request again after this many seconds. A delay longer than the retry policy's
    /// ``RetryPolicy/maximumDelay`` (or NaN) means no retry: the request ends with the attempt's error.
    case retryAfter(TimeInterval)
    /// This interceptor doesn't ask for a retry; the next one, or the retry policy, decides.
    case doNotRetry
    /// End the request with this error instead of the attempt's own.
    case fail(NetworkError)
}
