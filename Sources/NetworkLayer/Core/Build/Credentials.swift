/// The one list of what the layer treats as a credential, shared by redirects, logging and error texts.
package enum Credentials {
    /// Request headers that carry credentials (lowercased): never sent to another origin, never logged.
    package static let headers: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token", "x-amz-security-token",
    ]

    /// Query items, fragment parameters and JSON members that carry credentials by convention (lowercased).
    package static let parameters: Set<String> = [
        "access_token", "id_token", "refresh_token", "token", "api_key", "apikey", "key", "password",
        "secret", "signature", "sig", "code", "client_secret",
        // Cloud signed URLs: AWS SigV4, Google Cloud Storage V4 (Azure SAS's is `sig`, above).
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature",
        "x-goog-credential",
    ]

    /// `name` lowercased without `_` and `-`, so `accessToken` and `access-token` match `access_token`.
    package static func comparable(_ name: some StringProtocol) -> String {
        comparable(ascii: name.utf8)
            ?? String(
                String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" }))
    }

    /// ``comparable(_:)`` of a name written in ASCII bytes, lowercased byte by byte: nearly every name is, and
    /// the general form builds strings and arrays for each (a JSON body's every member, every query item).
    /// `nil` when a byte isn't ASCII.
    package static func comparable(ascii bytes: some Collection<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var count = 0
            for byte in bytes where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
                buffer[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
                count += 1
            }
            return count
        }
    }
}
