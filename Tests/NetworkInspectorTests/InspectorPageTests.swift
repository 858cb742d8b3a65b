import XCTest

@testable import NetworkInspector

/// The page's text, without a browser: what it embeds, what it asks for, what it allows to run.
final class InspectorPageTests: XCTestCase {
    private func page(_ snapshot: Data = InspectorPageFixtures.snapshot, token: String = "t") -> String {
        String(decoding: InspectorPage.html(snapshot: snapshot, token: token), as: UTF8.self)
    }

    private func embeddedSnapshot(of page: String) throws -> Data {
        let opening = #"<script id="snapshot" type="application/json">"#
        let start = try XCTUnwrap(page.range(of: opening))
        let end = try XCTUnwrap(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return Data(page[start.upperBound..<end.lowerBound].utf8)
    }

    func testASnapshotThatContainsAClosingScriptTagStaysWholeInsideItsElement() throws {
        let snapshot = Data(#"{"requests":[{"responseBody":{"text":"</script><b>x</b><!--"}}]}"#.utf8)
        let embedded = try embeddedSnapshot(of: page(snapshot))
        XCTAssertFalse(String(decoding: embedded, as: UTF8.self).contains("<"))
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: embedded) as? NSDictionary,
            try JSONSerialization.jsonObject(with: snapshot) as? NSDictionary)
    }

    func testTheTokenIsEscapedInItsAttribute() {
        let html = page(token: #""><script>x</script>&"#)
        XCTAssertTrue(html.contains(#"data-token="&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;""#))
    }

    func testThePageLoadsNothingFromElsewhere() {
        let html = page().replacingOccurrences(
            of: #"(?s)<script id="snapshot".*?</script>"#, with: "", options: .regularExpression)
        for reference in ["src=", "href=", "url(", "@import", "http:", "https:", "<link", "<img", "<iframe"] {
            XCTAssertFalse(html.contains(reference), "the page refers to \(reference)")
        }
    }

    func testOnlyThePagesOwnScriptAndStyleMayRun() throws {
        let html = page()
        let nonce = try XCTUnwrap(
            html.range(of: #"(?<=script-src 'nonce-)[0-9A-F]+"#, options: .regularExpression).map { html[$0] }
        )
        XCTAssertTrue(html.contains("default-src 'none'"))
        XCTAssertTrue(html.contains(#"<script nonce="\#(nonce)">"#))
        XCTAssertTrue(html.contains(#"<style nonce="\#(nonce)">"#))
        XCTAssertFalse(html.contains("unsafe-inline"))
        XCTAssertFalse(page().contains(String(nonce)), "a nonce is used once")
    }
}
