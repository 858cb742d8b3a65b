import Foundation

/// Whose entries an entry is among: everyone's, some credentials' holder's, or a named account's. The
/// fingerprints are keyed (``CacheKeying``), so a file name lets no one test guesses of a credential.
enum CachePartition: Hashable, Sendable, Codable {
    /// A request without credentials and without an account.
    case shared
    /// A request without an account, by the keyed fingerprint of the credentials it carried.
    case credentials(String)
    /// A request for a named account, by the keyed fingerprint of the name.
    case account(String)

    var tag: String {
        switch self {
        case .shared: "0"
        case .credentials(let fingerprint): "c" + fingerprint
        case .account(let fingerprint): "a" + fingerprint
        }
    }

    var isAccount: Bool {
        if case .account = self { return true }
        return false
    }
}

/// The keys of a cache's fingerprints, and so what it may write to disk. Anything depending on a
/// credential is an HMAC-SHA256 under a secret outside the directory: the app's key, else a random one,
/// and then such entries stay in memory. Account names and other `Vary` values use a fixed key, so they
/// are found again after a relaunch.
struct CacheKeying: Sendable {
    private let secret: [UInt8]
    private let persistentKey: [UInt8]
    /// Whether the secret is the app's, kept outside the directory and the same at every launch.
    let hasAppKey: Bool
    /// The header names that carry credentials, for the request at hand: its layer's list
    /// (``scoped(to:)``). Why not the cache's own: several layers, each with its own list, may share a
    /// cache.
    private(set) var credentials = CredentialHeaderNames()

    private static let fixedKey = Array("NetworkLayer.ResponseCache.persistent".utf8)
    /// 128 bits of hex.
    private static let fingerprintLength = 32

    init(appKey: Data?) {
        let appKey = Array(appKey ?? Data())
        hasAppKey = !appKey.isEmpty
        secret = hasAppKey ? appKey : (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        persistentKey = hasAppKey ? appKey : Self.fixedKey
    }

    /// This keying for a request whose layer treats `credentials` as credential headers.
    func scoped(to credentials: CredentialHeaderNames) -> CacheKeying {
        var scoped = self
        scoped.credentials = credentials
        return scoped
    }

    private static func fingerprint(_ key: [UInt8], _ parts: [String]) -> String {
        let message = Array(parts.joined(separator: "\u{0}").utf8)
        return String(SHA256.hex(SHA256.hmac(key: key, message: message)).prefix(fingerprintLength))
    }

    func partition(account: String?, request: HeaderFields) -> CachePartition {
        if let account { return .account(Self.fingerprint(persistentKey, ["account", account])) }
        let sent = credentials.all.compactMap { name in request[name].map { [name, $0] } }
        return sent.isEmpty
            ? .shared : .credentials(Self.fingerprint(secret, ["credentials"] + sent.flatMap { $0 }))
    }

    func varyFingerprint(name: String, value: String) -> String {
        Self.fingerprint(credentials.contains(name) ? secret : persistentKey, ["vary", name, value])
    }

    private static let credentialParameters = Set(Credentials.parameters.map(Credentials.comparable))

    /// Whether a URL names a password or a credential query item (`access_token`, `api_key`, ...).
    static func carriesCredential(_ url: String) -> Bool {
        guard url.contains("?") || url.contains("@"), let components = URLComponents(string: url) else {
            return false
        }
        if components.password != nil { return true }
        return (components.queryItems ?? []).contains {
            credentialParameters.contains(Credentials.comparable($0.name))
        }
    }
}
