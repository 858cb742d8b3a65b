import XCTest

@testable import NetworkInspector

final class InspectorPageTests: XCTestCase {
    func testASnapshotThatContainsAClosingScriptTagStaysInsideItsElement() {
        let snapshot = Data(#"{"requests":[{"responseBody":{"text":"</script><b>x</b>"}}]}"#.utf8)
        let page = String(decoding: InspectorPage.html(snapshot: snapshot, token: "t"), as: UTF8.self)
        XCTAssertEqual(page.components(separatedBy: "</script>").count, 2)
    }
}
