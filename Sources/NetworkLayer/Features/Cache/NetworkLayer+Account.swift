import Foundation

extension NetworkLayer {
    /// The account requests are for when neither the request (``NetworkRequest/account``) nor an
    /// interceptor ``BearerTokenAuthenticator`` names one; `nil` by default. It partitions the ``cache``
    /// (see <doc:CachingAndOffline>). Safe to set from any thread; read when a request starts.
    public var account: String? {
        get { changing.withLock { $0.account } }
        set { changing.withLock { $0.account = newValue } }
    }

    /// Reads the account a request is for (its own, else the first naming authenticator's, else the
    /// layer's) at each call: a sign-out mid-request changes it, and the token no longer matches.
    func cacheAccountReader<Value>(for request: NetworkRequest<Value>) -> @Sendable () -> String? {
        if let account = request.account { return { account } }
        let authenticators = (interceptors + request.interceptors).compactMap {
            $0 as? BearerTokenAuthenticator
        }
        let changing = changing
        return {
            for authenticator in authenticators {
                if let account = authenticator.account { return account }
            }
            return changing.withLock { $0.account }
        }
    }
}
