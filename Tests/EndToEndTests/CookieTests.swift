import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cookies as a session configuration asks: every reply's `Set-Cookie` (a final reply, a redirect, a 401)
/// goes into the configuration's cookie storage, and later requests to that origin send it, unless the
/// configuration's `httpCookieAcceptPolicy` is `.never`. The same on every platform, whoever parses them.
final class CookieTests: XCTestCase {
    private func configuration(accepting policy: HTTPCookie.AcceptPolicy = .always)
        -> (URLSessionConfiguration, HTTPCookieStorage)
    {
        // An ephemeral configuration has a cookie storage of its own: nothing leaks into the shared one.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = policy
        return (configuration, configuration.httpCookieStorage!)
    }

    private func get(_ path: String, from network: NetworkLayer) -> Result<Data, NetworkError>? {
        outcome(of: Data.self) { recorder in
            network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
        }
    }

    private func cookieNames(in storage: HTTPCookieStorage) -> [String] {
        (storage.cookies ?? []).map(\.name).sorted()
    }

    func testAReplysCookieIsStoredAndSentWithTheNextRequest() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [
            MockResponse(headers: ["Set-Cookie": "session=abc; Path=/"], text: "signed in"),
            MockResponse(text: "again"),
        ])
        let (configuration, storage) = configuration()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        XCTAssertNotNil(try get("login", from: network)?.get())
        XCTAssertEqual(cookieNames(in: storage), ["session"])
        XCTAssertNotNil(try get("me", from: network)?.get())

        XCTAssertNil(server.recordedRequests[0].header("Cookie"))
        XCTAssertEqual(server.recordedRequests[1].header("Cookie"), "session=abc")
    }

    func testARedirectsCookieIsStored() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [
            MockResponse(status: 302, headers: ["Location": "/home", "Set-Cookie": "visited=1; Path=/"]),
            MockResponse(text: "home"),
        ])
        let (configuration, storage) = configuration()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        XCTAssertNotNil(try get("start", from: network)?.get())

        XCTAssertEqual(cookieNames(in: storage), ["visited"])
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/start", "/home"])
    }

    func testAnUnauthorizedReplysCookieIsStored() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            MockResponse(
                status: 401,
                headers: ["WWW-Authenticate": "Basic realm=\"api\"", "Set-Cookie": "tried=1; Path=/"],
                text: "who are you?"))
        let (configuration, storage) = configuration()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        guard case .failure(.unacceptableStatusCode(401, _, _))? = get("private", from: network) else {
            return XCTFail("expected the 401 as the reply")
        }
        XCTAssertEqual(cookieNames(in: storage), ["tried"])
    }

    func testAConfigurationThatNeverAcceptsCookiesStoresNone() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [
            MockResponse(status: 302, headers: ["Location": "/home", "Set-Cookie": "visited=1; Path=/"]),
            MockResponse(headers: ["Set-Cookie": "session=abc; Path=/"], text: "home"),
        ])
        let (configuration, storage) = configuration(accepting: .never)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        XCTAssertNotNil(try get("start", from: network)?.get())

        XCTAssertEqual(cookieNames(in: storage), [])
    }

    func testARedirectThatCannotBeFollowedSetsItsCookie() throws {
        let server = try MockServer.started(in: self)
        // No Location: FoundationNetworking hands the 302 over only when the task ends.
        server.enqueue(MockResponse(status: 302, headers: ["Set-Cookie": "moved=0; Path=/"]))
        let (configuration, storage) = configuration()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        _ = get("start", from: network)

        XCTAssertEqual(cookieNames(in: storage), ["moved"])
    }

    func testEveryRepeatedSetCookieFieldIsStored() throws {
        let server = try MockServer.started(in: self)
        var reply = MockResponse(text: "ok")
        // The second name is not a plain token: the fields, folded into one, must still be told apart.
        reply.headers += [
            (name: "Set-Cookie", value: "a=1; Path=/; Expires=Wed, 09 Jun 2077 10:18:14 GMT"),
            (name: "Set-Cookie", value: "cart[item]=3; Path=/"),
        ]
        server.enqueue(reply)
        let (configuration, storage) = configuration()
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: configuration, cache: nil)

        XCTAssertNotNil(try get("basket", from: network)?.get())

        XCTAssertEqual(cookieNames(in: storage), ["a", "cart[item]"])
    }
}
