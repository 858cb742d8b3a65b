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

    /// The account a request is for, read before its interceptors run: the request's own, else the
    /// first authenticator's that names one, else the layer's.
    func cacheAccount<Value>(for request: NetworkRequest<Value>) -> String? {
        if let account = request.account { return account }
        for case let authenticator as BearerTokenAuthenticator in interceptors + request.interceptors {
            if let account = authenticator.account { return account }
        }
        return account
    }
}
