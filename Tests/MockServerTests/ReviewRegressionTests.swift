import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Regressions found in review of MockServer: each test fails if its fix is undone.
final class MockServerReviewRegressionTests: XCTestCase {
    private let session = TestSessions.make()

    override func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    func testNonFiniteTimeoutsAndPeriodsDoNotCrash() throws {
        let server = try startedServer()
        XCTAssertNil(server.takeRequest(timeout: .nan))
        server.enqueue(MockResponse(status: 200, text: "hello world").throttled(bytes: 2, every: .nan))
        let result = fetch(server.url("/x"), with: session)
        XCTAssertEqual(result.response?.statusCode, 200)
        XCTAssertEqual(String(decoding: result.data, as: UTF8.self), "hello world")
        XCTAssertEqual(server.takeRequest(timeout: .infinity)?.path, "/x")
    }

    func testAChunkedBodyOfManySmallChunksIsAccepted() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(status: 200, text: "ok"))
        let client = try RawClient(port: server.port)
        var request =
            "POST /chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        request += String(repeating: "1\r\na\r\n", count: 20_000) + "0\r\n\r\n"
        client.send(request)
        XCTAssertEqual(client.readResponse()?.status, 200)
        XCTAssertEqual(server.takeRequest(timeout: 5)?.body.count, 20_000)
    }

    func testAServerReleasedInsideItsOwnHandlerStillAnswersAndFreesItsPort() throws {
        var server: MockServer? = MockServer()
        try server?.start()
        let port = try XCTUnwrap(server?.port)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        server?.handler = { [weak server] _ in
            // Holds the last strong reference while the test drops its own.
            guard let server else { return MockResponse(status: 410) }
            entered.signal()
            _ = proceed.wait(timeout: .now() + 10)
            return MockResponse(status: 200, text: "\(server.port)")
        }
        let answered = expectation(description: "answered")
        let status = ResultBox()
        session.dataTask(with: try XCTUnwrap(server?.url("/x"))) { _, response, _ in
            status.value.response = response as? HTTPURLResponse
            answered.fulfill()
        }.resume()
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        server = nil
        proceed.signal()
        wait(for: [answered], timeout: 10)
        XCTAssertEqual(status.value.response?.statusCode, 200)
        let released = XCTNSPredicateExpectation(
            predicate: NSPredicate { _, _ in (try? RawClient(port: port, timeout: 1)) == nil }, object: nil)
        wait(for: [released], timeout: 10)
    }
}
