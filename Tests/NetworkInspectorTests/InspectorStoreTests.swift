import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

/// What the inspector keeps: the last N requests, each body cut at B bytes, redacted, with its outcome.
final class InspectorStoreTests: XCTestCase {
    func testItKeepsTheLastNRequestsAndCountsTheOnesItDropped() throws {
        let harness = try InspectorHarness(configuration: .init(maximumRequests: 5)) { request in
            MockResponse(text: request.path)
        }
        harness.get("/a", count: 3)
        harness.get("/b", count: 9)
        harness.waitForRecords(12)

        let snapshot = try harness.snapshot()
        let requests = try XCTUnwrap(snapshot["requests"] as? [[String: Any]])
        XCTAssertEqual(requests.count, 5)
        XCTAssertEqual(snapshot["dropped"] as? Int, 7)
        XCTAssertEqual(snapshot["maxRequests"] as? Int, 5)
        XCTAssertEqual(
            Set(requests.compactMap { $0["url"] as? String }), [harness.server.baseURL.absoluteString + "/b"])
        let ids = requests.compactMap { Int($0["id"] as? String ?? "") }
        XCTAssertEqual(ids, ids.sorted(), "oldest first")
    }

    func testEachBodyIsCutAtTheLimitAndSaysItWas() throws {
        let long = String(repeating: "é", count: 50)  // 100 bytes
        let harness = try InspectorHarness(configuration: .init(maximumBodyBytes: 11)) { _ in
            MockResponse(text: long)
        }
        harness.get("/long")
        harness.waitForRecords(1)

        let body = try XCTUnwrap(harness.requests().first?["responseBody"] as? [String: Any])
        XCTAssertEqual(body["size"] as? Int, 100)
        XCTAssertEqual(body["truncated"] as? Bool, true)
        // 11 bytes cut a character in two: its first byte is left out, the text stays text.
        XCTAssertEqual(body["text"] as? String, String(repeating: "é", count: 5))
        XCTAssertTrue(body["base64"] is NSNull)
    }

    func testBinaryBodiesAreBase64AndEmptyOnesAreNull() throws {
        let harness = try InspectorHarness { _ in MockResponse(body: Data([0xFF, 0xFE, 0x00])) }
        harness.get("/binary")
        harness.waitForRecords(1)

        let request = try XCTUnwrap(harness.requests().first)
        let body = try XCTUnwrap(request["responseBody"] as? [String: Any])
        XCTAssertEqual(body["base64"] as? String, "//4A")
        XCTAssertEqual(body["truncated"] as? Bool, false)
        XCTAssertTrue(body["text"] is NSNull)
        XCTAssertTrue(request["requestBody"] is NSNull)
    }

    func testARequestShowsItsStatusAttemptsRetriesAndTimes() throws {
        let harness = try InspectorHarness(retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01))
        harness.server.enqueue(MockResponse(status: 503))
        harness.server.enqueue(MockResponse(text: "ok"))
        harness.get("/flaky")
        harness.waitForRecords(1)

        let request = try XCTUnwrap(harness.requests().first)
        XCTAssertEqual(request["method"] as? String, "GET")
        XCTAssertEqual(request["status"] as? Int, 200)
        XCTAssertTrue(request["error"] is NSNull)
        XCTAssertEqual(request["retries"] as? Int, 1)
        XCTAssertEqual(request["cache"] as? String, "network")
        XCTAssertEqual(request["sharedBy"] as? Int, 1)
        let attempts = try XCTUnwrap(request["attempts"] as? [[String: Any]])
        XCTAssertEqual(attempts.map { $0["number"] as? Int }, [1, 2])
        XCTAssertEqual(attempts.map { $0["status"] as? Int }, [503, 200])
        // The policy's 10 ms, jittered.
        XCTAssertEqual(attempts.first?["retryDelay"] as? Double ?? -1, 5, accuracy: 5)
        XCTAssertTrue(attempts.last?["retryDelay"] is NSNull)
        XCTAssertTrue((attempts.first?["curl"] as? String ?? "").hasPrefix("curl "))
        let start = try XCTUnwrap(request["start"] as? Double)
        let end = try XCTUnwrap(request["end"] as? Double)
        XCTAssertGreaterThanOrEqual(end, start)
        let phases = try XCTUnwrap(request["phases"] as? [[String: Any]])
        XCTAssertTrue(phases.contains { $0["name"] as? String == "wire" })
    }

    func testAFailedRequestCarriesItsError() throws {
        let harness = try InspectorHarness()
        harness.server.enqueue(MockResponse(status: 404, headers: [:], text: "gone"))
        harness.get("/missing")
        harness.waitForRecords(1)

        let request = try XCTUnwrap(harness.requests().first)
        XCTAssertEqual(request["status"] as? Int, 404)
        XCTAssertFalse((request["error"] as? String ?? "").isEmpty)
    }

    func testACacheHitShowsAsAHit() throws {
        let harness = try InspectorHarness(cache: ResponseCache())
        harness.server.enqueue(MockResponse(headers: ["Cache-Control": "max-age=600"], text: "kept"))
        harness.get("/cached", count: 2)
        harness.waitForRecords(2)

        let requests = try harness.requests()
        XCTAssertEqual(requests.map { $0["cache"] as? String }, ["network", "hit"])
        XCTAssertEqual(requests.last?["status"] as? Int, 200)
        XCTAssertEqual(harness.server.requestCount, 1)
    }

    func testCredentialsAreRedactedUnlessTheAppTurnedItOff() throws {
        let headers = ["Authorization": "Bearer s3cret"]
        let redacting = try InspectorHarness { _ in MockResponse(text: "ok") }
        redacting.get("/private?access_token=abc", headers: headers)
        redacting.waitForRecords(1)
        let plain = try InspectorHarness(configuration: .init(redactsSecrets: false)) { _ in
            MockResponse(text: "ok")
        }
        plain.get("/private?access_token=abc", headers: headers)
        plain.waitForRecords(1)

        let redacted = String(
            decoding: InspectorEvent.encoded(redacting.inspector.store.snapshot()), as: UTF8.self)
        XCTAssertFalse(redacted.contains("s3cret"))
        XCTAssertFalse(redacted.contains("abc"))
        XCTAssertTrue(redacted.contains("<redacted>"))
        let shown = String(decoding: InspectorEvent.encoded(plain.inspector.store.snapshot()), as: UTF8.self)
        XCTAssertTrue(shown.contains("Bearer s3cret"))
        XCTAssertTrue(shown.contains("access_token=abc"))
    }

    func testEachRequestKeepsItsLayersLabel() throws {
        let harness = try InspectorHarness(label: "cdn")
        harness.get("/image")
        harness.waitForRecords(1)

        XCTAssertEqual(try harness.requests().first?["layer"] as? String, "cdn")
    }

    func testClearForgetsEveryRequest() throws {
        let harness = try InspectorHarness()
        harness.get("/one", count: 2)
        harness.waitForRecords(2)
        harness.inspector.clear()

        XCTAssertEqual(try harness.requests().count, 0)
        XCTAssertEqual(try harness.snapshot()["dropped"] as? Int, 0)
    }
}
