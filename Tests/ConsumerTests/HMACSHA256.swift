// HMAC-SHA256 for the README's request-signing example, from the library's own SHA-256 (the cache's
// keyed fingerprints): the toolchain's Foundation has no digest on Linux, and the package takes no
// dependency. An app would use CryptoKit or swift-crypto's `HMAC<SHA256>` instead.

import NetworkLayer

/// HMAC-SHA256 (RFC 2104, test vectors in RFC 4231).
enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    static func code(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        SHA256.hmac(key: key, message: message)
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hexadecimal, two digits a byte.
    var hex: String {
        map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
