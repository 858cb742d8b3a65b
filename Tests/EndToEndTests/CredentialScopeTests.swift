import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials stay with the origin they were meant for, however a redirect is spelled and whoever
/// answers it, and out of error texts however the URL holding them is spelled.
final class CredentialScopeTests: XCTestCase {
    /// A base URL's `alice:s3cret@` is sent as `Authorization: Basic`; it must not follow a redirect to
    /// another origin, whether `Location` is absolute or scheme-relative.
    func testTheUserInfoOfAURLDoesNotFollowARedirectToAnotherOrigin() throws {
        for form in ["absolute", "scheme-relative"] {
            let other = try MockServer.echoing(in: self)
            let origin = try MockServer.started(in: self)
            let location =
                form == "absolute" ? "http://127.0.0.1:\(other.port)/x" : "//127.0.0.1:\(other.port)/x"
            origin.enqueue(MockResponse(status: 302, headers: ["Location": location]))
            let base = try XCTUnwrap(URL(string: "http://alice:s3cret@127.0.0.1:\(origin.port)/"))
            let network = NetworkLayer(baseURL: base, sessionConfiguration: .ephemeral, timeout: 5)

            let result = outcome(of: URL?.self, timeout: 5) { recorder in
                network.send(
                    NetworkRequest<Data>(urlString: "start"), successHandler: { recorder.success($0.url) },
                    errorHandler: recorder.failure)
            }

            XCTAssertEqual(other.recordedRequests.count, 1, "\(form): the redirect was followed")
            for request in other.recordedRequests {
                // base64("alice:s3cret")
                XCTAssertFalse(
                    String(decoding: request.rawHead, as: UTF8.self).contains("YWxpY2U6czNjcmV0"),
                    "\(form): the origin's user-info went to another origin")
            }
            XCTAssertFalse(
                String(describing: result).contains("s3cret"), "\(form): \(String(describing: result))")
        }
    }

    /// A redirect target of another origin answers 401 of its own: the token never went there, so that
    /// 401 neither refreshes the token nor replays the request, nor (refresh failing) signs the user out.
    func testAnotherOriginsAnswerToARedirectLeavesTheTokenAlone() throws {
        for refreshSucceeds in [true, false] {
            let elsewhere = try MockServer.started(in: self) { _ in MockResponse(status: 401) }
            let api = try MockServer.started(in: self) { _ in
                MockResponse(status: 302, headers: ["Location": "http://127.0.0.1:\(elsewhere.port)/file"])
            }
            let refreshes = Counter()
            let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
                refreshes.increment()
                completion(refreshSucceeds ? .success("new") : .failure("refresh failed"))
            }
            let network = NetworkLayer(
                baseURL: api.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
                interceptors: [authenticator])

            let result = outcome(of: Data.self, timeout: 5) { recorder in
                network.send(
                    NetworkRequest<Data>(urlString: "download"),
                    successHandler: { recorder.success($0.value) },
                    errorHandler: recorder.failure)
            }

            XCTAssertEqual(result?.error?.statusCode, 401)
            XCTAssertNil(elsewhere.recordedRequests.first?.header("Authorization"))
            XCTAssertEqual(refreshes.value, 0, "another origin's 401 refreshed the token")
            XCTAssertEqual(api.requestCount, 1, "the request was replayed for another origin's 401")
            XCTAssertEqual(authenticator.accessToken, "old")
        }
    }

    /// A URL built around a password with `#`, `/` or `?` in it doesn't parse; the error saying so must
    /// still hide the password.
    func testAnInvalidURLsErrorHidesAPasswordWithDelimitersInIt() {
        let network = NetworkLayer(
            baseURL: URL(string: "https://api.example.com"), sessionConfiguration: .ephemeral)
        for password in ["Hunter#2secret", "Hunter/2secret", "Hunter?2secret"] {
            let result = outcome(of: Data.self, timeout: 5) { recorder in
                network.send(
                    NetworkRequest<Data>(urlString: "https://alice:\(password)@files.example.com/report"),
                    successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            }
            let error = result?.error
            XCTAssertNotNil(error)
            for text in [error?.description ?? "", error?.message ?? "", String(reflecting: error as Any)] {
                XCTAssertFalse(text.contains("2secret"), "the password is in \(text)")
            }
        }
    }
}
