import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps an item made for one account from going out with another's token: checked before the attempt
/// starts and again as its last interceptor, after the layer's have added the token.
final class OutboxAccountCheck: RequestInterceptor {
    private let account: String?
    private let current: @Sendable () -> String?
    /// Claimed when the account changed after the attempt started.
    private let failedAtSend = Once()

    init(item: OutboxItem, layer: NetworkLayer) {
        account = item.account
        current = layer.cacheAccountReader(for: NetworkRequest<Data>(urlString: ""))
    }

    /// Whether the layer is signed in as the item's account (any, for an item without one).
    var matches: Bool {
        account == nil || current() == account
    }

    /// Whether the attempt was stopped because the account changed after it started.
    var mismatched: Bool { failedAtSend.isClaimed }

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        guard matches else {
            _ = failedAtSend.claim()
            return completion(.failure(.invalidRequest(OutboxError.accountMismatch.message)))
        }
        completion(.success(request))
    }
}
