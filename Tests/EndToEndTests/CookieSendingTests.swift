import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which `Cookie` field a request carries now that the layer, not the session, writes it on Linux (issue
/// 44): the storage's, read when the request is keyed (a shared or cached `GET`) or when it goes out (any
/// other), in place of a `Cookie` field of the request's own, as FoundationNetworking did.
final class CookieSendingTests: XCTestCase {
    private func layer(_ server: MockServer, storing session: String?) throws -> NetworkLayer {
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try XCTUnwrap(configuration.httpCookieStorage)
        if let session {
            let url = try XCTUnwrap(server.baseURL)
            storage.setCookies(
                HTTPCookie.cookies(
                    withResponseHeaderFields: ["Set-Cookie": "session=\(session); Path=/"], for: url),
                for: url, mainDocumentURL: nil)
        }
        return NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: configuration, callbackQueue: .global(),
            timeout: 5,
            cache: ResponseCache(memoryCapacity: 100_000))
    }

    /// The `Cookie` field `request` reached the server with.
    private func cookieSent(_ request: NetworkRequest<Data>, storing session: String?) throws -> String? {
        let server = try MockServer.started(in: self)
        server.handler = { _ in MockResponse(text: "ok") }
        let network = try layer(server, storing: session)
        let done = expectation(description: "answered")
        network.send(request, successHandler: { _ in done.fulfill() }, errorHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 10)
        return server.recordedRequests.first?.header("Cookie")
    }

    func testAGETCarriesTheStoragesCookie() throws {
        XCTAssertEqual(try cookieSent(NetworkRequest(urlString: "me"), storing: "a"), "session=a")
    }

    func testAPOSTCarriesTheStoragesCookie() throws {
        let post = NetworkRequest<Data>(
            method: .post, urlString: "notes", body: .data(Data("{}".utf8), contentType: "application/json"))
        XCTAssertEqual(try cookieSent(post, storing: "a"), "session=a")
    }

    func testARequestsOwnCookieGoesWhenTheStorageHasNone() throws {
        let own = NetworkRequest<Data>(urlString: "me", headers: ["Cookie": "own=1"])
        XCTAssertEqual(try cookieSent(own, storing: nil), "own=1")
    }

    func testARequestsOwnCookieMeetsTheStoragesAsOnEachPlatform() throws {
        let own = NetworkRequest<Data>(urlString: "me", headers: ["Cookie": "own=1"])
        #if canImport(FoundationNetworking)
            // FoundationNetworking's rule, kept: the storage's field replaces the request's.
            XCTAssertEqual(try cookieSent(own, storing: "a"), "session=a")
        #else
            // URLSession's documented rule: a request's own field overrides the storage's cookies.
            XCTAssertEqual(try cookieSent(own, storing: "a"), "own=1")
        #endif
    }
}
