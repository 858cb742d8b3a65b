import Foundation
import XCTest

@testable import NetworkLayer

/// The rule every hop of a composed call follows, on its own: the creating origin keeps the caller's
/// credentials, another origin gets none of them and no user-info, and plain `http` after `https` is
/// refused as a redirect is.
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

    func testCredentialsFromTheOneListGoOnlyToTheCreatingOrigin() {
        let headers = [
            "authorization": "a", "Cookie": "c", "X-API-Key": "k", "X-Layer-Secret": "l",
            "X-Request-Secret": "r",
            "X-Trace": "t",
        ]
        let rule = rule(RedirectPolicy(credentialHeaders: ["x-request-secret"]))

        XCTAssertEqual(rule.callerHeaders(headers, on: .sameOrigin), headers)
        XCTAssertEqual(
            rule.callerHeaders(headers, on: .otherOrigin(URL(string: "https://uploads.example.com")!)),
            ["X-Trace": "t"])
        XCTAssertEqual(rule.callerHeaders(headers, on: nil), ["X-Trace": "t"])
    }
}
