import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("Downloads into folders that do not exist yet")
struct DownloadFolderSuite {
    @Test("The real pipeline creates the folders with .createIntermediateFolders")
    func realPipeline() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: StubResponse(body: Data("bytes".utf8)))
        let network = stubs.makeNetworkLayer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "DownloadFolderSuite-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("a/b/file.bin")
        let saved: URL? = await withCheckedContinuation { done in
            network.send(
                .download(
                    urlString: "https://files.example.com/file.bin", to: destination,
                    options: [.createIntermediateFolders]),
                successHandler: { done.resume(returning: $0.value) },
                errorHandler: { _ in done.resume(returning: nil) })
        }
        #expect(saved == destination)
        #expect(stubs.recordedRequests.count == 1)
        #expect(try Data(contentsOf: destination) == Data("bytes".utf8))
    }
}
