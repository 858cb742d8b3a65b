import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Issue 19: a download can create the folders its destination needs, with the dummy as with the real
/// layer (the same check runs before either sends).
final class DownloadFolderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("DownloadFolders-\(UUID())")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTheDummyCreatesTheFoldersWhenAsked() throws {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://files.example.com/report.pdf", returning: Data("%PDF".utf8))
        let destination = folder.appendingPathComponent("reports/2026/report.pdf")
        var saved: URL?
        var failure: NetworkError?

        network.send(
            .download(
                urlString: "https://files.example.com/report.pdf", to: destination,
                options: [.createIntermediateFolders]),
            successHandler: { saved = $0.value }, errorHandler: { failure = $0 })

        XCTAssertNil(failure)
        XCTAssertEqual(saved, destination)
        XCTAssertEqual(try Data(contentsOf: destination), Data("%PDF".utf8))
    }

    func testWithoutTheOptionAMissingFolderIsRefused() {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://files.example.com/report.pdf", returning: Data("%PDF".utf8))
        var failure: NetworkError?
        network.send(
            .download(
                urlString: "https://files.example.com/report.pdf",
                to: folder.appendingPathComponent("x/report.pdf")),
            successHandler: { _ in }, errorHandler: { failure = $0 })
        guard case .transport(let error)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(error.code, .cannotOpenFile)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
    }
}
