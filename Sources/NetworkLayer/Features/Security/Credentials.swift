/// The one list of what the layer treats as a credential, shared by the redirect policy, the logger,
/// the HAR recorder, the curl command and the errors' texts.
package enum Credentials {
    /// Request headers that carry credentials (lowercased): never sent to another origin, never written
    /// in clear.
    package static let headers: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token", "x-amz-security-token",
    ]

    /// Query items, fragment parameters and JSON members that carry credentials by convention
    /// (lowercased): their values are redacted wherever the layer writes a URL or a body.
    package static let parameters: Set<String> = [
        "access_token", "id_token", "refresh_token", "token", "api_key", "apikey", "key", "password",
        "secret", "signature", "sig", "code", "client_secret",
        // The signed URLs of the major clouds: AWS SigV4 query signing, Google Cloud Storage V4, and
        // Azure SAS (whose signature is `sig`, above).
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature",
        "x-goog-credential",
    ]

    /// `name` as parameter and member names are compared: lowercased, without `_` and `-`, so that
    /// `accessToken`, `AccessToken` and `access-token` all match `access_token`.
    package static func comparable(_ name: some StringProtocol) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" }))
    }

    /// Whether `name` (any case) is one of ``headers`` or one of `more` (lowercased).
    package static func isCredentialHeader(_ name: String, orOneOf more: Set<String> = []) -> Bool {
        let name = name.lowercased()
        return headers.contains(name) || more.contains(name)
    }
}
