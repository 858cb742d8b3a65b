import Foundation

extension NetworkLayer {
    /// Ends the hold a server's rate limit put on the origin of `url` (its scheme, host and port): the
    /// requests waiting for it go now, and new ones go at once, until a reply asks for a pause again.
    ///
    /// For an app that knows better than the reply: a support screen's "try again", a server the app
    /// trusts again after an account change. An origin not held is left as it is.
    ///
    /// ```swift
    /// network.liftRateLimit(for: URL(string: "https://api.example.com")!)
    /// ```
    ///
    /// - Parameter url: Any URL of the origin.
    public func liftRateLimit(for url: URL) {
        if let origin = Origin(url) { origins(making: false)?.lift(origin) }
    }

    /// Ends every hold servers' rate limits put on this layer's origins (see ``liftRateLimit(for:)``).
    public func liftAllRateLimits() {
        origins(making: false)?.lift(nil)
    }
}
