import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// libcurl reports a connection lost in the middle of a reply or of an upload's body as unknown error -1 with
/// its own message; the layer names it a lost connection, so retries and resumes treat it alike.
final class LostConnectionTests: XCTestCase {
    private func unknown(_ text: String) -> URLError {
        URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: text])
    }

    func testADropInTheMiddleOfAnUploadsBodyIsALostConnection() {
        for text in ["Send failure: Broken pipe", "Send failure: Connection reset by peer"] {
            let mapped = Transfer.connectionLost(unknown(text)) as? URLError
            XCTAssertEqual(mapped?.code, .networkConnectionLost, text)
        }
    }

    func testATruncatedReplyIsALostConnectionAndOtherUnknownErrorsStayUnknown() {
        let truncated = Transfer.connectionLost(unknown("transfer closed with 10 bytes remaining to read"))
        XCTAssertEqual((truncated as? URLError)?.code, .networkConnectionLost)
        let other = Transfer.connectionLost(unknown("Failed writing received data to disk/application"))
        XCTAssertEqual((other as? URLError)?.code, .unknown)
    }
}
