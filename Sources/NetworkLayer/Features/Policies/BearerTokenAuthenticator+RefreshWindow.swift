import Foundation

extension BearerTokenAuthenticator {
    /// The refresh window used for a token that lives `lifetime` seconds (its expiry minus when it was set,
    /// on the layer's clock): `refreshWindow`, but never more than half the lifetime.
    ///
    /// Why half: a window as long as the lifetime refreshes every token before its first use (30-second
    /// tokens and the default 60 s window made every request refresh). With half, each token serves at least
    /// half its life, so each token is refreshed once (steady traffic: at most every half lifetime), and the half left is a margin
    /// that grows with the token, for requests in flight. Long-lived tokens keep the configured window (an
    /// hour's token: 60 s by default).
    static func effectiveRefreshWindow(_ refreshWindow: TimeInterval, lifetime: TimeInterval) -> TimeInterval
    {
        min(refreshWindow, max(0, lifetime) * 0.5)
    }
}
