import Foundation

extension ResponseCache {
    /// Why a cache with a directory keeps a reply in memory only, so that it is gone after a relaunch.
    ///
    /// The layer tells its monitors once per cache and reason
    /// (``NetworkMonitor/didKeepInMemoryOnly(_:because:)``), and ``NetworkLogger`` writes the
    /// ``description``, which names the fix. See <doc:CachingAndOffline>.
    public struct MemoryOnlyReason: Sendable, Hashable, CustomStringConvertible {
        /// A short name: `credentials`, `varyOnCredentials` or `credentialInURL`.
        public let name: String
        /// What happened and what to change.
        public let description: String

        /// The request carried credentials (`Authorization`, `Cookie`, `X-Api-Key`, …, or a header its
        /// layer's ``RedirectPolicy/credentialHeaders`` names) and named no account, and the cache has no
        /// `fingerprintKey`: its key for the credentials is random, made anew at each launch, so a file
        /// written under it could never be found again.
        public static let credentials = MemoryOnlyReason(
            name: "credentials",
            description:
                "Replies to requests with credentials and no account stay in memory: name the account "
                + "(BearerTokenAuthenticator.setAccessToken(_:expiresAt:account:), NetworkLayer.account or "
                + "NetworkRequest.account), or give ResponseCache a fingerprintKey.")

        /// The reply varies on a credential header (`Vary: Authorization`), and the cache has no
        /// `fingerprintKey`, for the same reason as ``credentials``.
        public static let varyOnCredentials = MemoryOnlyReason(
            name: "varyOnCredentials",
            description:
                "Replies that vary on a credential header stay in memory: give ResponseCache a fingerprintKey."
        )

        /// The URL carries a credential (a password, or a query item such as `access_token`): the URL is
        /// written in clear, so such a reply never goes to disk, whatever the cache's key.
        public static let credentialInURL = MemoryOnlyReason(
            name: "credentialInURL",
            description:
                "Replies whose URL carries a credential (a password or a query item such as access_token) "
                + "never go to disk: send the credential in a header instead.")
    }
}

extension CacheKeying {
    /// Why an entry for `key` varying on `varying` may not be written to disk; `nil` when it may. Which
    /// `Vary` names are credentials: ``credentials``, the request's layer's list. A lookup, which doesn't
    /// know what the entry varies on, asks with none: the entry may be on disk only when that answer is
    /// `nil` (not keyed by this cache's random secret, and no credential in its URL, written in clear).
    func memoryOnlyReason(_ key: CacheKey, varying: [String: String] = [:]) -> ResponseCache.MemoryOnlyReason?
    {
        if Self.carriesCredential(key.url) { return .credentialInURL }
        guard !hasAppKey else { return nil }
        if case .credentials = key.partition { return .credentials }
        let varies = varying.keys.contains { credentials.contains($0) }
        return varies ? .varyOnCredentials : nil
    }
}
