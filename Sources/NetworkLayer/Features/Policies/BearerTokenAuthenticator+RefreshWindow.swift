import Foundation

extension BearerTokenAuthenticator.Token {
    /// Whether the token, set at `setAt` (on the layer's clock), is still sent at `now` rather than
    /// refreshed: it expires later than its refresh window from now. The window is `refreshWindow`, but
    /// never more than half the token's lifetime (its expiry minus `setAt`).
    ///
    /// Why half: a window as long as the lifetime refreshes every token before its first use (30-second
    /// tokens and the default 60 s window made every request refresh). With half, each token serves at least
    /// half its life, so each token is refreshed once (steady traffic: at most every half lifetime), and the
    /// half left is a margin that grows with the token, for requests in flight. Long-lived tokens keep the
    /// configured window (an hour's token: 60 s by default).
    func isUsable(at now: Date, setAt: Date, refreshWindow: TimeInterval) -> Bool {
        guard let expiresAt else { return true }
        let window = min(refreshWindow, max(0, expiresAt.timeIntervalSince(setAt)) * 0.5)
        return expiresAt.timeIntervalSince(now) > window
    }
}
