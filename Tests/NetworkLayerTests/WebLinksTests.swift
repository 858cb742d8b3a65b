import Foundation
import NetworkLayer
import XCTest

/// RFC 8288 `Link` headers, read by `WebLinks`.
final class WebLinksTests: XCTestCase {
    private let page = URL(string: "https://api.example.com/v1/items?page=2")

    private func links(_ fields: [String: String]) -> WebLinks {
        WebLinks(headers: ResponseHeaders(fields), relativeTo: page)
    }

    func testGitHubStylePagination() {
        let found = links([
            "Link": #"<https://api.example.com/v1/items?page=3>; rel="next", "#
                + #"<https://api.example.com/v1/items?page=9>; rel="last""#
        ])
        XCTAssertEqual(found["next"]?.absoluteString, "https://api.example.com/v1/items?page=3")
        XCTAssertEqual(found["LAST"]?.absoluteString, "https://api.example.com/v1/items?page=9")
        XCTAssertNil(found["prev"])
        XCTAssertEqual(found.all.count, 2)
    }

    func testRelativeTargetsResolveAgainstTheURLThatAnswered() {
        let found = links(["link": "</v1/items?page=1>; rel=first, <items?page=3>; rel=next"])
        XCTAssertEqual(found["first"]?.absoluteString, "https://api.example.com/v1/items?page=1")
        XCTAssertEqual(found["next"]?.absoluteString, "https://api.example.com/v1/items?page=3")
    }

    func testSeveralRelationsParametersAndQuotedCommas() {
        let found = links([
            "Link": #"<https://a.example/x?a=1,2>; rel="next last"; title="Page, \"two\""; type=text/html"#
        ])
        let link = try? XCTUnwrap(found.all.first)
        XCTAssertEqual(found.all.count, 1)
        XCTAssertEqual(link?.url.absoluteString, "https://a.example/x?a=1,2")
        XCTAssertEqual(link?.relations, ["next", "last"])
        XCTAssertEqual(link?.attributes["title"], #"Page, "two""#)
        XCTAssertEqual(link?.attributes["type"], "text/html")
        XCTAssertEqual(found["last"], found["next"])
    }

    func testAMalformedLinkIsSkippedAndTheOthersKept() {
        let found = links([
            "Link":
                #"https://no-brackets.example; rel=prev, <https://ok.example/2>; rel="next", <>; rel=self"#
        ])
        XCTAssertNil(found["prev"])
        XCTAssertEqual(found["next"]?.absoluteString, "https://ok.example/2")
    }

    func testNoLinkHeaderMeansNoLinks() {
        XCTAssertTrue(links(["Content-Type": "application/json"]).isEmpty)
        XCTAssertTrue(WebLinks(headers: ["Link": "</x>; rel=next"], relativeTo: nil).isEmpty)
    }

    func testAResponseReadsItsOwnLinks() {
        let response = NetworkResponse(
            value: [1], headers: ["Link": "<?page=3>; rel=next"], url: page)
        XCTAssertEqual(response.links["next"]?.absoluteString, "https://api.example.com/v1/items?page=3")
    }
}
