// The README's samples for retry, interceptors and token refresh, verbatim (`ReadmeSyncTests`).

import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLRequest is here on Linux
#endif

/// Adds the app's version to every request.
struct AppVersionHeader: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue("3.2", forHTTPHeaderField: "X-App-Version")
        completion(.success(request))
    }
}

/// Signs each attempt with an HMAC-SHA256 over its method, URL and body, as they are sent.
struct RequestSigner: RequestInterceptor {
    let keyID: String
    let secret: [UInt8]

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        guard let method = request.httpMethod, let url = request.url?.absoluteString else {
            return completion(.failure("Cannot sign a request without a method and a URL"))
        }
        let message = Array("\(method)\n\(url)\n".utf8) + Array(request.httpBody ?? Data())
        let signature = HMACSHA256.code(for: message, key: secret).hex
        var signed = request
        signed.setValue("\(keyID):\(signature)", forHTTPHeaderField: "X-Signature")
        completion(.success(signed))
    }
}

struct TokenReply: Codable {
    let accessToken: String
}

/// The app's sign-in state. Token requests go through a layer of their own, without the authenticator:
/// a refresh request must not wait for the refresh.
/// Sendable, as the authenticator's `refresh` runs off the main queue: its token behind a lock.
final class AuthSession: @unchecked Sendable {
    private let lock = NSLock()
    private var storedToken: String?  // guarded by `lock`
    private let refreshToken: String
    private let auth: NetworkLayer

    init(accessToken: String?, refreshToken: String, authServer: URL?) {
        storedToken = accessToken
        self.refreshToken = refreshToken
        auth = NetworkLayer(baseURL: authServer)
    }

    var accessToken: String? { lock.withLock { storedToken } }

    func refresh(completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) {
        auth.post(
            urlString: "oauth/token", body: ["grant_type": "refresh_token", "refresh_token": refreshToken],
            successHandler: { (reply: TokenReply) in
                self.lock.withLock { self.storedToken = reply.accessToken }  // keep it for the next launch
                completion(.success(reply.accessToken))
            },
            errorHandler: { error in completion(.failure(error)) })
    }
}

enum ReadmePolicyExample {
    static func makeLayer(session: AuthSession, secret: [UInt8]) -> NetworkLayer {
        let authenticator = BearerTokenAuthenticator(accessToken: session.accessToken) { completion in
            session.refresh(completion: completion)
        }
        let network = NetworkLayer(
            baseURL: URL(string: "https://api.example.com/v1"),
            retryPolicy: .default,
            interceptors: [AppVersionHeader(), authenticator, RequestSigner(keyID: "ios-1", secret: secret)])
        return network
    }

    static func policies() -> [RetryPolicy] {
        // Up to 5 attempts, waits of at most 0.2, 0.4, 0.8, 1.6 s (each a random part of that)
        let quick = RetryPolicy(maximumAttempts: 5, initialDelay: 0.2, maximumDelay: 10)
        // Rides out a network drop: waits of up to 2, 4, 8, 16, 30 and 30 s, about 45 s in all on average
        let patient = RetryPolicy(maximumAttempts: 7, initialDelay: 2, maximumDelay: 30)
        return [quick, patient]
    }

    static func postWithRetries(network: NetworkLayer, photo: Data) {
        // A POST is retried only when you say so; an idempotency key lets the server drop duplicates
        var upload = NetworkRequest<EmptyResponse>(
            method: .post, urlString: "photos", headers: ["Idempotency-Key": UUID().uuidString],
            body: .data(photo, contentType: "image/jpeg"))
        upload.retryPolicy = RetryPolicy(maximumAttempts: 4, retriesNonIdempotentRequests: true)
        network.send(upload) { result in print(result) }
    }
}

/// An endpoint with a policy of its own, overriding the layer's.
enum ReportsAPI: Endpoint {
    case daily
    case export

    var path: String {
        switch self {
        case .daily: "reports/daily"
        case .export: "reports/export"
        }
    }

    var method: HTTPMethod { self == .export ? .post : .get }

    var retryPolicy: RetryPolicy? {
        switch self {
        case .daily: RetryPolicy(maximumAttempts: 5)
        case .export: RetryPolicy.none  // `.none` alone would read as "no override" here
        }
    }
}
