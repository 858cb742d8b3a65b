import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Runs every "after" sample of the migration guide (Migrating.md, DocSnippets/Migrating.swift) against
/// the dummy: each does what its removed "before" form did. The "before" forms are compile-fail cases
/// (.ci/reply-form-check).
final class MigratingTests: XCTestCase {
    private typealias Snippets = MigratingSnippets
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrating-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func dummy() -> DummyNetworkLayer {
        DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
    }

    /// Runs `sample` with a new screen and returns what it showed, once it showed one thing.
    private func shown(
        _ sample: (Snippets.Screen) -> Void, file: StaticString = #filePath, line: UInt = #line
    ) -> [String] {
        let screen = Snippets.Screen()
        let done = expectation(description: "shown")
        screen.onShow = { done.fulfill() }
        sample(screen)
        wait(for: [done], timeout: 5)
        return screen.shown
    }

    func testTransfersAreRequestsSentWithSend() throws {
        let network = dummy()
        network.stub(.get, "/files/report.pdf", returning: Data("%PDF-1.7".utf8))
        let destination = folder.appendingPathComponent("report.pdf")
        XCTAssertEqual(
            shown { Snippets.downloadFromURL(network: network, destination: destination, screen: $0) },
            ["opened report.pdf"])
        XCTAssertEqual(try Data(contentsOf: destination), Data("%PDF-1.7".utf8))
        XCTAssertEqual(
            shown { Snippets.downloadFromEndpoint(network: network, destination: destination, screen: $0) },
            ["opened report.pdf"])

        let report = folder.appendingPathComponent("q3.pdf")
        try Data("%PDF".utf8).write(to: report)
        network.stub(.post, "/documents", returning: StoredDocument(id: 7))
        network.stub(.post, "/avatars", returning: Data(), statusCode: 204)
        network.stub(.put, "/avatar", returning: Data(), statusCode: 204)
        var form = MultipartFormData()
        form.append("Quarterly report", name: "title")
        form.append(fileURL: report, name: "file", mimeType: "application/pdf")

        XCTAssertEqual(
            shown { Snippets.uploadFile(network: network, reportURL: report, screen: $0) }, ["document 7"])
        XCTAssertEqual(network.recordedRequests.last?.upload, .file(report))
        XCTAssertEqual(
            shown { Snippets.uploadFileIgnoringReply(network: network, photoURL: report, screen: $0) },
            ["saved"])
        XCTAssertEqual(
            shown { Snippets.uploadData(network: network, pdf: Data("%PDF".utf8), screen: $0) },
            ["document 7"])
        XCTAssertEqual(
            shown {
                Snippets.uploadDataIgnoringReply(network: network, jpeg: Data([0xFF, 0xD8]), screen: $0)
            },
            ["saved"])
        XCTAssertEqual(network.recordedRequests.last?.method, .put)
        XCTAssertEqual(
            shown { Snippets.uploadMultipart(network: network, form: form, screen: $0) }, ["document 7"])
        network.stub(.post, "/documents", returning: Data(), statusCode: 201)
        XCTAssertEqual(
            shown { Snippets.uploadMultipartIgnoringReply(network: network, form: form, screen: $0) },
            ["saved"])
    }

    func testTheWholeResponseComesFromSend() {
        let network = dummy()
        let todos = [Todo(id: 1, title: "Write the guide")]
        network.stub(.get, "/todos", returning: todos, statusCode: 200, headers: ["X-Total-Count": "41"])
        let todo = Todo(id: 1, title: "Ship it")
        for method in [HTTPMethod.post, .put, .patch] {
            let path = method == .post ? "/todos" : "/todos/1"
            network.stub(method, path, returning: todo, statusCode: 201, headers: ["Location": "/todos/1"])
        }
        network.stub(.delete, "/todos/1", returning: Data(), statusCode: 204)

        XCTAssertEqual(
            shown { Snippets.requestWholeResponse(network: network, screen: $0) }, ["1 todos of 41"])
        XCTAssertEqual(shown { Snippets.getWholeResponse(network: network, screen: $0) }, ["1 todos of 41"])
        XCTAssertEqual(network.recordedRequests.last?.url.query, "page=2")
        XCTAssertEqual(
            shown { Snippets.postWholeResponse(network: network, todo: todo, screen: $0) },
            ["todo 1 at /todos/1"])
        XCTAssertEqual(
            shown { Snippets.putWholeResponse(network: network, todo: todo, screen: $0) },
            ["todo 1 at /todos/1"])
        XCTAssertEqual(
            shown { Snippets.patchWholeResponse(network: network, todo: todo, screen: $0) },
            ["todo 1 at /todos/1"])
        XCTAssertEqual(shown { Snippets.deleteWholeResponse(network: network, screen: $0) }, ["status 204"])
    }

    func testTheAsyncFormsThatIgnoreTheReplyAndTheTypedOnes() async throws {
        let network = dummy()
        let todo = Todo(id: 1, title: "Ship it")
        network.stub(.get, "/todos", returning: [todo])
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            network.stub(method, method == .post ? "/todos" : "/todos/1", returning: todo)
        }
        try await Snippets.ignoringReplies(network: network, todo: todo)
        XCTAssertEqual(
            network.recordedRequests.map { "\($0.method.rawValue) \($0.url.path)" },
            ["GET /todos", "POST /todos", "PUT /todos/1", "PATCH /todos/1", "DELETE /todos/1"])
        let replies = try await Snippets.typedReplies(network: network, todo: todo)
        XCTAssertEqual(replies, Array(repeating: todo, count: 6))
    }

    func testSignOutRunsTheAppsCleanUpThenCancelsWhatIsInFlight() {
        let network = dummy()
        network.holdsReplies = true
        let session = Snippets.Session(network: network)
        var cleanedUp = false
        session.onSignOut = { cleanedUp = true }
        let cancelled = expectation(description: "cancelled")
        network.get(
            urlString: "todos", successHandler: { (_: [Todo]) in XCTFail("no reply was given") },
            errorHandler: { error in
                XCTAssertEqual(error.message, NetworkError.cancelled.message)
                cancelled.fulfill()
            })
        session.signOut()
        wait(for: [cancelled], timeout: 5)
        XCTAssertTrue(cleanedUp)
    }

    func testAnOutboxWritesAccountIsAValueWithAnOptionalID() {
        XCTAssertEqual(
            Snippets.owner(of: OutboxRequest(.post, "todos", kind: "create", account: "ada")), "ada")
        XCTAssertEqual(
            Snippets.owner(of: OutboxRequest(.post, "todos", kind: "create", account: .any)), "anyone")
    }

    func testTheSwitchesNameTheNewCases() {
        let screen = Snippets.Screen()
        Snippets.show(.rateLimited(until: Date()), on: screen)
        Snippets.show(.sourceFileChanged(folder), on: screen)
        let todos = [Todo(id: 1, title: "Ship it")]
        Snippets.show(NetworkResponse(value: todos, cacheStatus: .staleHit), on: screen)
        Snippets.show(NetworkResponse(value: todos, cacheStatus: .staleWhileRevalidating), on: screen)
        XCTAssertEqual(
            screen.shown,
            [
                "The server is busy; try again later.", NetworkError.sourceFileChanged(folder).message,
                "1 todos of saved", "1 todos of saved",
            ])
    }

    /// Every "before" block of the guide is, line for line, in one compile-fail case, so the guide shows
    /// only code that .ci/reply-form-check proves fails with the replacement's name.
    func testEveryBeforeSampleIsACompileFailCase() throws {
        let root = DocumentationFiles.packageRoot
        let guide = root.appendingPathComponent("Sources/NetworkLayer/NetworkLayer.docc/Migrating.md")
        let befores = DocumentationFiles.swiftBlocks(in: try String(contentsOf: guide, encoding: .utf8))
            .filter(DocumentationFiles.isBeforeBlock)
        XCTAssertGreaterThanOrEqual(befores.count, 4)
        let cases = DocumentationFiles.files(
            under: root.appendingPathComponent("Tests/CompileChecks/Migration/Cases")
        ) {
            $0.pathExtension == "swift"
        }
        let caseLines = try cases.map { Self.significantLines(try String(contentsOf: $0, encoding: .utf8)) }
        XCTAssertGreaterThanOrEqual(caseLines.count, 25)
        for block in befores {
            let lines = Array(Self.significantLines(block).dropFirst())
            XCTAssertTrue(
                caseLines.contains { file in
                    (0...max(0, file.count - lines.count)).contains {
                        Array(file.dropFirst($0).prefix(lines.count)) == lines
                    }
                },
                "A \"before\" sample of Migrating.md is in no case of Tests/CompileChecks/Migration/Cases:\n"
                    + block)
        }
    }

    private static func significantLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
