import Foundation

extension NetworkLayer {
    /// The account requests are for when neither the request (``NetworkRequest/account``) nor a
    /// ``BearerTokenAuthenticator`` among the interceptors names one; `nil` by default. It partitions the
    /// ``cache``: see <doc:CachingAndOffline>. Safe to set from any thread; a request reads it when it
    /// starts.
    public var account: String? {
        get { accountName.withLock { $0 } }
        set { accountName.withLock { $0 = newValue } }
    }

    /// Reads the account a request is for (the request's own, else the first authenticator's that names
    /// one, else the layer's) as it is at each call: a sign-out or another user's sign-in
    /// while the request is under way changes it, and the token the request then carries is not the
    /// account's it started for.
    func cacheAccountReader<Value>(for request: NetworkRequest<Value>) -> @Sendable () -> String? {
        if let account = request.account { return { account } }
        let authenticators = (interceptors + request.interceptors).compactMap {
            $0 as? BearerTokenAuthenticator
        }
        let layerAccount = accountName
        return {
            for authenticator in authenticators {
                if let account = authenticator.account { return account }
            }
            return layerAccount.withLock { $0 }
        }
    }
}
