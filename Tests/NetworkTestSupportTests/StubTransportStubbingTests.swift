import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Matchers, replies, delay, cancel, precedence, reset and the unmatched message of ``StubTransport``.
final class StubTransportStubbingTests: XCTestCase {
    private let stubs = StubTransport()
    private lazy var network = stubs.makeNetworkLayer()

    func testPrefixMatcher() {
        stubs.stub(.get, .prefix("https://api.example.com/emp"), with: .json(["prefix"]))
        XCTAssertEqual(fetch("https://api.example.com/employees?page=2").values, [["prefix"]])
        XCTAssertEqual(fetch("https://api.example.com/emp").values, [["prefix"]])
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/other")))
        XCTAssertTrue(isUnmatched(fetch("https://other.example.com/employees")))
    }

    func testPathMatcherIgnoresHostAndQueryButNotATrailingSlash() {
        stubs.stub(.get, .path("/employees"), with: .json(["path"]))
        stubs.stub(.get, .path("/folders/"), with: .json(["folder"]))
        XCTAssertEqual(fetch("https://api.example.com/employees").values, [["path"]])
        XCTAssertEqual(fetch("http://localhost:8080/employees?page=2").values, [["path"]])
        XCTAssertEqual(fetch("https://api.example.com/folders/").values, [["folder"]])
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/employees/")))
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/employees/1")))
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/folders")))
    }

    func testPredicateMatcher() {
        let secondPage = RequestMatcher("page 2") { url in
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains(
                URLQueryItem(name: "page", value: "2")) == true
        }
        stubs.stub(.get, secondPage, with: .json(["page 2"]))
        XCTAssertEqual(fetch("https://api.example.com/x?page=2").values, [["page 2"]])
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/x?page=3")))
    }

    func testAStubWithoutAMethodAnswersEveryMethodAndAMethodMustMatch() {
        stubs.stub(.post, .any, with: .json(["post only"]))
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/x")))
        stubs.stub(nil, .any, with: .json(["any method"]))
        XCTAssertEqual(fetch("https://api.example.com/x").values, [["any method"]])
        XCTAssertEqual(stubs.recordedRequests.map(\.method), [.get, .get])
    }

    func testTheMostRecentMatchingStubWins() {
        stubs.stub(.get, .any, with: .json(["first"]))
        stubs.stub(.get, "https://api.example.com/x", with: .json(["second"]))
        stubs.stub(.get, "https://api.example.com/other", with: .json(["third"]))
        XCTAssertEqual(fetch("https://api.example.com/x").values, [["second"]])
        XCTAssertEqual(fetch("https://api.example.com/y").values, [["first"]])
    }

    func testFileReplies() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stub-\(UUID().uuidString).json")
        try Data(#"["from a file"]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        stubs.stub(.get, "https://api.example.com/file", with: .file(file))
        XCTAssertEqual(fetch("https://api.example.com/file").values, [["from a file"]])

        let missing = file.appendingPathExtension("missing")
        stubs.stub(.get, "https://api.example.com/missing", with: .file(missing))
        let error = fetch("https://api.example.com/missing").errors.first
        XCTAssertEqual(error?.statusCode, 500)
        let body = String(decoding: error?.responseBody ?? Data(), as: UTF8.self)
        XCTAssertTrue(body.contains("could not read \(missing.path)"), body)
    }

    func testJSONKeepsAContentTypeGivenInAnyCase() {
        stubs.stub(.get, .any, with: .json(["x"], status: 418, headers: ["content-type": "text/x"]))
        let error = fetch("https://api.example.com/teapot").errors.first
        guard case .unacceptableStatusCode(418, _, let headers)? = error else {
            return XCTFail("gave \(String(describing: error))")
        }
        let contentTypes = headers.filter { $0.key.lowercased() == "content-type" }.map(\.value)
        XCTAssertEqual(contentTypes, ["text/x"], "one Content-Type, the caller's")
    }

    func testDelayHoldsTheReply() {
        stubs.stub(.get, .any, with: .json(["late"], delay: 0.2))
        let started = Date()
        XCTAssertEqual(fetch("https://api.example.com/slow").values, [["late"]])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.2)
    }

    func testCancelDuringADelayDeliversCancelledAtOnce() {
        stubs.stub(.get, .any, with: .json(["never"], delay: 30))
        let started = Date()
        let got = fetch("https://api.example.com/slow") { $0.cancel() }
        XCTAssertTrue(got.values.isEmpty)
        XCTAssertEqual(got.errorDescriptions, ["cancelled"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testResetRemovesStubsAndRecordings() {
        stubs.stub(.get, .any, with: .json(["before"]))
        XCTAssertEqual(fetch("https://api.example.com/x").values, [["before"]])
        XCTAssertEqual(stubs.recordedRequests.count, 1)
        stubs.reset()
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
        XCTAssertTrue(isUnmatched(fetch("https://api.example.com/x")))
        XCTAssertEqual(stubs.recordedRequests.count, 1, "recording goes on after a reset")
    }

    func testAnUnmatchedRequestFailsWithAMessageListingTheRequestAndTheStubs() {
        XCTAssertEqual(unmatchedMessage(fetch("https://api.example.com/x")).contains("(none)"), true)
        stubs.stub(.post, "https://api.example.com/a", with: StubResponse())
        stubs.stub(nil, .prefix("https://api.example.com/b"), with: StubResponse())
        stubs.stub(.delete, .path("/c"), with: StubResponse())
        let message = unmatchedMessage(fetch("https://api.example.com/x?q=1"))
        // Redacted as every error the layer hands out: query values may be secrets.
        XCTAssertTrue(message.contains("no stub matches GET https://api.example.com/x?q=<redacted>"), message)
        XCTAssertTrue(message.contains("POST https://api.example.com/a"), message)
        XCTAssertTrue(message.contains("ANY https://api.example.com/b*"), message)
        XCTAssertTrue(message.contains("DELETE */c"), message)
    }

    // MARK: - Helpers

    /// Sends a GET for `[String]`, lets `afterStart` act on the task, and waits for the handler.
    private func fetch(_ urlString: String, afterStart: (NetworkTask) -> Void = { _ in }) -> Captured<
        [String]
    > {
        let got = Captured<[String]>()
        let done = expectation(description: "answered")
        got.onHandler = { done.fulfill() }
        afterStart(network.get(urlString: urlString, successHandler: got.success, errorHandler: got.failure))
        wait(for: [done], timeout: 10)
        return got
    }

    private func unmatchedMessage(_ got: Captured<[String]>) -> String {
        guard case .transport(let error)? = got.errors.first else { return "not a transport error" }
        return error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
    }

    private func isUnmatched(_ got: Captured<[String]>) -> Bool {
        unmatchedMessage(got).contains("StubTransport: no stub matches")
    }
}
