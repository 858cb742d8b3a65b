import Foundation

extension NetworkLayer {
    /// The account requests are for when neither the request (``NetworkRequest/account``) nor an
    /// interceptor ``BearerTokenAuthenticator`` names one; `nil` by default. It partitions the ``cache``
    /// (see <doc:CachingAndOffline>). Safe to set from any thread; read when a request starts.
    public var account: String? {
        get { changing.withLock { $0.account } }
        set { changing.withLock { $0.account = newValue } }
    }
}
