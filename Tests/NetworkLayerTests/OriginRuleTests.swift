import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rule every hop of a composed call follows, on its own: the creating origin keeps the credentials,
/// another origin gets none of them (its steps end with the rule's filter) and no user-info, and plain
/// `http` after `https` is refused as a redirect is.
final class OriginRuleTests: XCTestCase {
    private let source = URL(string: "https://api.example.com/files?x=1")!

    private func rule(_ policy: RedirectPolicy = .default) -> OriginRule {
        OriginRule(
            source: source, credentials: CredentialHeaderNames(adding: ["X-Layer-Secret"]),
            redirectPolicy: policy)
    }

    func testTheCreatingOriginInAnySpellingIsTheSameOrigin() {
        for url in [
            "https://API.example.com/u/1", "https://api.example.com:443/u/1", "https://a:b@api.example.com/",
        ] {
            guard case .sameOrigin = rule().hop(to: URL(string: url)!) else { return XCTFail(url) }
        }
    }

    func testAnotherOriginLosesUserInfo() {
        let hop = rule().hop(to: URL(string: "https://alice:secret@uploads.example.com/u/1")!)

        guard case .otherOrigin(let url) = hop else { return XCTFail("\(hop)") }
        XCTAssertEqual(url.absoluteString, "https://uploads.example.com/u/1")
    }

    func testPlainHTTPAfterHTTPSIsRefusedUnlessThePolicyAllowsInsecureRedirects() {
        let target = URL(string: "http://uploads.example.com/u/1")!

        guard case .refused(.invalidRequest(let reason)) = rule().hop(to: target) else {
            return XCTFail("expected a refusal")
        }
        XCTAssertTrue(reason.contains("http://uploads.example.com/u/1"), reason)
        guard case .otherOrigin = rule(RedirectPolicy(allowsInsecureRedirects: true)).hop(to: target) else {
            return XCTFail("an app that allows insecure redirects allows this too")
        }
        let plain = OriginRule(
            source: URL(string: "http://api.example.com/files"), credentials: CredentialHeaderNames(),
            redirectPolicy: .default)
        guard case .otherOrigin = plain.hop(to: target) else {
            return XCTFail("http after http is no downgrade")
        }
    }

    /// The filter a step to another origin ends with takes off every name on the list, whoever set it.
    func testTheFilterTakesOffEveryHeaderOnTheListButACoveringAuthenticatorsToken() throws {
        let headers = [
            "authorization": "a", "Cookie": "c", "X-API-Key": "k", "X-Layer-Secret": "l",
            "X-Request-Secret": "r", "X-Trace": "t",
        ]
        let uploads = URL(string: "https://uploads.example.com/u/1")!
        let credentials = CredentialHeaderNames(adding: ["X-Layer-Secret", "x-request-secret"])

        for (origins, keepsToken) in [([source], false), ([source, uploads], true)] {
            let authenticator = BearerTokenAuthenticator(accessToken: "t", origins: origins) { _ in }
            let rule = OriginRule(
                source: source, credentials: credentials, redirectPolicy: .default,
                authenticators: [authenticator])
            var request = URLRequest(url: uploads)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

            let filtered = try adapted(request, by: rule.credentialFilter)

            XCTAssertEqual(
                filtered.allHTTPHeaderFields ?? [:],
                keepsToken ? ["Authorization": "a", "X-Trace": "t"] : ["X-Trace": "t"], "\(origins)")
        }
    }

    private func adapted(_ request: URLRequest, by interceptor: some RequestInterceptor) throws -> URLRequest
    {
        let result = Locked<Result<URLRequest, NetworkError>?>(nil)
        interceptor.adapt(request) { outcome in result.withLock { $0 = outcome } }
        return try XCTUnwrap(result.withLock { $0 }).get()
    }
}
