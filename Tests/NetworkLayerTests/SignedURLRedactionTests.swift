import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The parts of the major clouds' signed URLs that grant access, and secrets inside a URL carried as a
/// query value, never reach a log line or a curl command.
@Suite("Signed URLs and URLs inside query values")
struct SignedURLRedactionTests {
    private let logger = NetworkLogger(sink: { _ in })

    @Test(
        "the signature, credential and session token of a signed URL are redacted",
        arguments: [
            (
                "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261127"
                    + "&X-Amz-Date=20261127T000000Z&X-Amz-Expires=60&X-Amz-Security-Token=SECRETTOKEN"
                    + "&X-Amz-SignedHeaders=host&X-Amz-Signature=SECRETSIG",
                "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=<redacted>"
                    + "&X-Amz-Date=20261127T000000Z&X-Amz-Expires=60&X-Amz-Security-Token=<redacted>"
                    + "&X-Amz-SignedHeaders=host&X-Amz-Signature=<redacted>"
            ),
            (
                "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256"
                    + "&X-Goog-Credential=svc%40p.iam&X-Goog-Signature=SECRETSIG",
                "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256"
                    + "&X-Goog-Credential=<redacted>&X-Goog-Signature=<redacted>"
            ),
            (
                "https://a.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-12-01&sp=r&sig=SECRETSIG",
                "https://a.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-12-01&sp=r&sig=<redacted>"
            ),
        ])
    func signedURLs(_ url: String, _ expected: String) {
        #expect(logger.redacted(urlString: url) == expected)
    }

    @Test(
        "a query value that is a URL is redacted as a URL",
        arguments: [
            (
                "https://h/login?next=/a?token=SECRET1&page=2",
                "https://h/login?next=/a%3Ftoken%3D<redacted>&page=2"
            ),
            (
                "https://h/login?next=%2Fa%3Ftoken%3DSECRET1%26page%3D3&page=2",
                "https://h/login?next=/a%3Ftoken%3D<redacted>%26page%3D3&page=2"
            ),
            (
                "https://h/go?to=https%3A%2F%2Fother%2Fx%3FX-Amz-Signature%3DSECRET1",
                "https://h/go?to=https://other/x%3FX-Amz-Signature%3D<redacted>"
            ),
            (
                "https://h/go?to=https%3A%2F%2Fother%2Fx%3Fpage%3D1",
                "https://h/go?to=https%3A%2F%2Fother%2Fx%3Fpage%3D1"
            ),
            ("https://h/a?q=what%3F&page=2", "https://h/a?q=what%3F&page=2"),
        ])
    func nestedURLs(_ url: String, _ expected: String) {
        #expect(logger.redacted(urlString: url) == expected)
    }

    @Test("a curl command shows no part of a signed URL that grants access")
    func curl() throws {
        var request = URLRequest(
            url: try #require(
                URL(
                    string: "https://b.s3.amazonaws.com/k?X-Amz-Signature=SECRET1&X-Amz-Credential=SECRET2"
                        + "&next=%2Fa%3Faccess_token%3DSECRET3")))
        request.setValue("SECRET4", forHTTPHeaderField: "X-Amz-Security-Token")
        let command = logger.curlCommand(for: request)
        #expect(!command.contains("SECRET"), "\(command)")
        #expect(command.contains("X-Amz-Signature=<redacted>"), "\(command)")
    }
}
