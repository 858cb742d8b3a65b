import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The redirect rules, decided on the requests FoundationNetworking proposes.
final class RedirectPolicyTests: XCTestCase {
    private let callerHeaders = [
        "Authorization": "Bearer t", "Proxy-Authorization": "Basic p", "Cookie": "s=1", "X-Api-Key": "k",
        "X-Custom": "c", "Content-Type": "application/json", "Accept": "application/json",
    ]

    private func response(_ status: Int, from url: String) throws -> HTTPURLResponse {
        try XCTUnwrap(
            HTTPURLResponse(
                url: try XCTUnwrap(URL(string: url)), statusCode: status, httpVersion: nil,
                headerFields: ["Location": url]))
    }

    private func request(_ url: String, _ method: String = "GET", body: Data? = nil) throws -> URLRequest {
        var request = URLRequest(url: try XCTUnwrap(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in callerHeaders { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func headerNames(_ request: URLRequest?) -> Set<String> {
        Set((request?.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })
    }

    func testDefaultIsTheSafeSetting() {
        XCTAssertEqual(RedirectPolicy.default, RedirectPolicy())
        XCTAssertFalse(RedirectPolicy.default.allowsInsecureRedirects)
        XCTAssertFalse(RedirectPolicy.default.forwardsHeadersAcrossOrigins)
        XCTAssertNotEqual(RedirectPolicy.default, RedirectPolicy(allowsInsecureRedirects: true))
    }

    func testHTTPSToHTTPIsNotFollowedByDefault() throws {
        let original = try request("https://api.example.com/a")
        for target in [
            "http://api.example.com/a", "HTTP://api.example.com:443/b", "http://other.example.com/",
        ] {
            XCTAssertNil(
                RedirectPolicy.default.request(
                    following: try response(302, from: "https://api.example.com/a"), to: try request(target),
                    from: original), target)
        }
        // A later hop counts too: https → https elsewhere → http.
        XCTAssertNil(
            RedirectPolicy.default.request(
                following: try response(301, from: "https://cdn.example.com/x"),
                to: try request("http://cdn.example.com/x"), from: try request("https://api.example.com/a")))
        XCTAssertNotNil(
            RedirectPolicy.default.request(
                following: try response(301, from: "http://api.example.com/a"),
                to: try request("http://api.example.com/b"), from: try request("http://api.example.com/a")),
            "http to http is no downgrade")
    }

    func testHTTPSToHTTPIsFollowedWithTheOptInAsAnotherOrigin() throws {
        let policy = RedirectPolicy(allowsInsecureRedirects: true)
        let followed = policy.request(
            following: try response(302, from: "https://api.example.com/a"),
            to: try request("http://api.example.com/a"), from: try request("https://api.example.com/a"))
        XCTAssertEqual(followed?.url?.absoluteString, "http://api.example.com/a")
        XCTAssertEqual(headerNames(followed), ["accept"], "another scheme is another origin")
    }

    func testAnotherOriginGetsOnlyAcceptByDefault() throws {
        let original = try request("https://api.example.com/a")
        for target in [
            "https://evil.example.com/b", "https://api.example.com:8443/b", "https://api.example.com.evil/b",
        ] {
            let followed = RedirectPolicy.default.request(
                following: try response(302, from: "https://api.example.com/a"), to: try request(target),
                from: original)
            XCTAssertEqual(followed?.url?.absoluteString, target)
            XCTAssertEqual(headerNames(followed), ["accept"], target)
            XCTAssertEqual(followed?.value(forHTTPHeaderField: "Accept"), "application/json", target)
        }
    }

    func testForwardingHeadersAcrossOriginsNeverForwardsCredentials() throws {
        let policy = RedirectPolicy(forwardsHeadersAcrossOrigins: true)
        let followed = policy.request(
            following: try response(307, from: "https://api.example.com/a"),
            to: try request("https://cdn.example.com/b"), from: try request("https://api.example.com/a"))
        XCTAssertEqual(headerNames(followed), ["x-custom", "content-type", "accept"])
    }

    func testEveryCredentialOfTheOneListAndTheCallersOwnStayBehind() throws {
        let policy = RedirectPolicy(forwardsHeadersAcrossOrigins: true, credentialHeaders: ["X-Session"])
        var original = try request("https://api.example.com/a")
        var proposed = try request("https://cdn.example.com/b")
        for name in ["X-Auth-Token", "x-session", "X-API-KEY", "cookie"] {
            original.setValue("secret", forHTTPHeaderField: name)
            proposed.setValue("secret", forHTTPHeaderField: name)
        }
        let followed = policy.request(
            following: try response(302, from: "https://api.example.com/a"), to: proposed, from: original)
        XCTAssertEqual(headerNames(followed), ["x-custom", "content-type", "accept"])
    }

    func testSameOriginIsFollowedUnchanged() throws {
        let proposed = try request("https://API.example.com:443/b?x=1")
        for policy in [RedirectPolicy.default, RedirectPolicy(forwardsHeadersAcrossOrigins: true)] {
            let followed = policy.request(
                following: try response(308, from: "https://api.example.com/a"), to: proposed,
                from: try request("https://api.example.com/a"))
            XCTAssertEqual(followed, proposed)
        }
        let plain = try request("http://localhost/b")
        XCTAssertEqual(
            RedirectPolicy.default.request(
                following: try response(301, from: "http://localhost:80/a"), to: plain,
                from: try request("http://localhost:80/a")), plain, "80 is http's port")
    }

    /// Proposed requests as FoundationNetworking makes them: 303 (any method) and 301/302 of a POST
    /// become a GET without a body; every other status keeps the method and the body, which FN then
    /// sends empty. Both platforms' facts: Apple's URLSession sends the body again, so every such redirect
    /// is followed there. Apple's fact is not run on a Linux session: libcurl would send those bodies empty
    /// (``PlatformFacts/losesRedirectedBodies``).
    func testARequestWithABodyIsFollowedOnlyAsAGetWithoutABody() throws {
        let body = Data("{}".utf8)
        let url = "https://api.example.com/a"
        for facts in [PlatformFacts.linux, .apple] {
            for method in ["POST", "PUT", "PATCH", "DELETE"] {
                for status in [301, 302, 303, 307, 308] {
                    let becomesGet = status == 303 || (method == "POST" && status != 307 && status != 308)
                    let proposed = try request(
                        "https://api.example.com/b", becomesGet ? "GET" : method,
                        body: becomesGet ? nil : body)
                    let followed = RedirectPolicy.default.request(
                        following: try response(status, from: url), to: proposed,
                        from: try request(url, method, body: body), facts: facts)
                    XCTAssertEqual(
                        followed != nil, becomesGet || facts == .apple, "\(method) \(status) \(facts)")
                }
            }
        }
        for status in [301, 302, 307, 308] {
            let bodiless = try request("https://api.example.com/b", "DELETE")
            XCTAssertEqual(
                RedirectPolicy.default.request(
                    following: try response(status, from: url), to: bodiless, from: try request(url, "DELETE")
                ),
                bodiless, "DELETE \(status) without a body keeps its method")
        }
    }

    /// The policy on a real FoundationNetworking session, until the layer's init takes a policy: the
    /// proposed request FN builds carries every original header, and the option decides which arrive.
    func testOnARealSessionForwardingSendsCallerHeadersButNoCredentials() throws {
        for policy in [RedirectPolicy.default, RedirectPolicy(forwardsHeadersAcrossOrigins: true)] {
            let target = try MockServer.startedForTest(self)
            let origin = try MockServer.startedForTest(self)
            origin.enqueue(
                MockResponse(
                    status: 302, headers: ["Location": try XCTUnwrap(target.url("/b")).absoluteString]))
            var request = URLRequest(url: try XCTUnwrap(origin.url("/a")))
            for (name, value) in callerHeaders where name != "Content-Type" {
                request.setValue(value, forHTTPHeaderField: name)
            }

            let status = try send(request, following: policy)

            XCTAssertEqual(status, 204)
            let arrived = try XCTUnwrap(target.takeRequest(timeout: 5))
            let callerNames = Set(callerHeaders.keys.map { $0.lowercased() })
            let forwarded = Set(arrived.headers.map { $0.name.lowercased() }).intersection(callerNames)
            XCTAssertEqual(
                forwarded,
                policy.forwardsHeadersAcrossOrigins ? ["accept", "x-custom"] : ["accept"])
        }
    }

    private func send(_ request: URLRequest, following policy: RedirectPolicy) throws -> Int? {
        let delegate = PolicyDelegate(policy: policy)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let done = expectation(description: "response")
        let status = LockedStatus()
        session.dataTask(with: request) { _, response, _ in
            status.set((response as? HTTPURLResponse)?.statusCode)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 10)
        return status.get()
    }
}

/// Lets the policy decide, as the layer's session delegate does.
private final class PolicyDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let policy: RedirectPolicy

    init(policy: RedirectPolicy) {
        self.policy = policy
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(policy.request(following: response, to: request, from: task.originalRequest))
    }
}

private final class LockedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int?

    func set(_ value: Int?) { lock.withLock { self.value = value } }
    func get() -> Int? { lock.withLock { value } }
}

extension MockServer {
    /// A started server answering 204 to anything not enqueued; stopped when the test ends.
    fileprivate static func startedForTest(_ test: XCTestCase) throws -> MockServer {
        let server = MockServer { _ in MockResponse(status: 204) }
        try server.start()
        test.addTeardownBlock { server.stop() }
        return server
    }
}
