import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The layer's own keeping of reply cookies (used on Linux, where FoundationNetworking's costs 6% of the
/// CPU of a small GET): what it stores from the fields a reply arrives with.
final class ResponseCookiesTests: XCTestCase {
    private let url = URL(string: "https://api.example.com/v1/login")!

    private func stored(from headers: [String: String]) throws -> [String: String] {
        let storage = try XCTUnwrap(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        SessionCookies(storage: storage).store(from: response, pinned: true)
        return Dictionary(uniqueKeysWithValues: (storage.cookies ?? []).map { ($0.name, $0.value) })
    }

    func testRepeatedSetCookieFieldsArriveFoldedAndEachCookieIsStored() throws {
        // How a reply's repeated fields reach the delegate: one value, joined by ", ".
        let folded = "a=1; Path=/; Expires=Wed, 09 Jun 2027 10:18:14 GMT, b=2; Path=/"
        XCTAssertEqual(try stored(from: ["Set-Cookie": folded]), ["a": "1", "b": "2"])
    }

    func testAFieldSpelledInAnotherCaseIsStoredToo() throws {
        XCTAssertEqual(try stored(from: ["set-cookie": "c=3; Path=/"]), ["c": "3"])
    }

    func testAReplyWithoutSetCookieStoresNothing() throws {
        XCTAssertEqual(try stored(from: ["Content-Type": "application/json", "Cookie": "x=1"]), [:])
    }

    func testFoldedFieldsAreSplitBeforeEachCookieNotInsideADate() {
        let folded = "a=1; Expires=Wed, 09 Jun 2077 10:18:14 GMT, cart[item]=3, b=2; Max-Age=60"
        XCTAssertEqual(
            SessionCookies.fields(folded: folded),
            ["a=1; Expires=Wed, 09 Jun 2077 10:18:14 GMT", "cart[item]=3", "b=2; Max-Age=60"])
        XCTAssertEqual(SessionCookies.fields(folded: "a=1"), ["a=1"])
        XCTAssertEqual(SessionCookies.fields(folded: "a=1,"), ["a=1,"])
    }
}
