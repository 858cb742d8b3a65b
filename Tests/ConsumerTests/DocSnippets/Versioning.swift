// The Swift sample of the "What the version number promises" article (Versioning.md), exactly as printed
// there (see ReadmeSyncTests), run as a test.

import NetworkLayer
import XCTest

func diagnosticsLine() -> String {
    "NetworkLayer \(NetworkLayer.version)"
}

final class VersioningArticleTests: XCTestCase {
    func testTheDiagnosticsLineNamesASemanticVersion() throws {
        let line = diagnosticsLine()
        XCTAssertTrue(line.hasPrefix("NetworkLayer "), line)
        XCTAssertNotNil(SemanticVersion(String(line.dropFirst("NetworkLayer ".count))), line)
    }
}
