import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

/// The transfers a real layer makes against MockServer, as `/api/snapshot` lists them: kind, URL, bytes,
/// total, a resumable upload's confirmed offset, and state.
final class InspectorTransferTests: XCTestCase {
    private static let size = 3 * 65_536 + 1_000

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "InspectorTransferTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Sends `request` through the harness's layer and waits until the inspector recorded `finishes`
    /// requests.
    private func send<Value>(_ request: NetworkRequest<Value>, _ harness: InspectorHarness, finishes: Int = 1)
    {
        let done = expectation(description: "sent")
        harness.network.send(
            request, successHandler: { _ in done.fulfill() },
            errorHandler: { error in
                XCTFail("\(error)")
                done.fulfill()
            })
        wait(for: [done], timeout: 20)
        harness.waitForRecords(finishes)
    }

    /// The transfers of `/api/snapshot`, fetched from the running inspector.
    private func servedTransfers(_ harness: InspectorHarness) throws -> [[String: Any]] {
        let page = try harness.inspector.start()
        defer { harness.inspector.stop() }
        let token = URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? ""
        let client = try XCTUnwrap(RawClient(port: page.port ?? 0))
        client.get("/api/snapshot?token=\(token)", host: "127.0.0.1:\(page.port ?? 0)")
        let body = try XCTUnwrap(client.read().components(separatedBy: "\r\n\r\n").last)
        let snapshot = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try XCTUnwrap(snapshot["transfers"] as? [[String: Any]])
    }

    func testADownloadShowsItsBytesTotalAndEnd() throws {
        let body = Data(count: Self.size)
        let harness = try InspectorHarness { _ in MockResponse(body: body) }
        send(
            NetworkRequest<URL>.download(
                urlString: "/file.bin", to: try folder().appendingPathComponent("f")), harness)

        let transfers = try servedTransfers(harness)
        XCTAssertEqual(transfers.count, 1, "\(transfers)")
        let transfer = try XCTUnwrap(transfers.first)
        XCTAssertEqual(transfer["kind"] as? String, "download")
        XCTAssertTrue((transfer["url"] as? String ?? "").hasSuffix("/file.bin"))
        XCTAssertEqual(transfer["bytes"] as? Int, Self.size)
        XCTAssertEqual(transfer["total"] as? Int, Self.size)
        XCTAssertTrue(transfer["offset"] is NSNull, "a download has no confirmed offset")
        XCTAssertEqual(transfer["state"] as? String, "finished")
        let requests = try harness.requests()
        XCTAssertEqual(transfer["id"] as? String, requests.first?["id"] as? String, "the request's own row")
    }

    func testAnUploadShowsItsBytesSent() throws {
        let harness = try InspectorHarness { _ in MockResponse(status: 204) }
        send(NetworkRequest<EmptyResponse>.upload(urlString: "/files", data: Data(count: Self.size)), harness)

        let transfer = try XCTUnwrap(try harness.snapshot()["transfers"] as? [[String: Any]]).first
        XCTAssertEqual(transfer?["kind"] as? String, "upload")
        XCTAssertEqual(transfer?["bytes"] as? Int, Self.size)
        XCTAssertEqual(transfer?["total"] as? Int, Self.size)
        XCTAssertEqual(transfer?["state"] as? String, "finished")
    }

    func testAFailedDownloadSaysSo() throws {
        let harness = try InspectorHarness { _ in
            var reply = MockResponse(body: Data(count: 100_000))
            reply.fault = .disconnectMidBody
            return reply
        }
        let done = expectation(description: "failed")
        harness.network.send(
            NetworkRequest<URL>.download(urlString: "/cut", to: try folder().appendingPathComponent("f")),
            successHandler: { _ in done.fulfill() }, errorHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 20)
        harness.waitForRecords(1)

        let transfer = try XCTUnwrap(try harness.snapshot()["transfers"] as? [[String: Any]]).first
        XCTAssertEqual(transfer?["kind"] as? String, "download")
        XCTAssertTrue((transfer?["state"] as? String ?? "").hasPrefix("failed: "), "\(transfer ?? [:])")
    }

    /// A resumable upload is one row at its upload URL, however many appends it took, with the offset
    /// the server confirmed last.
    func testAResumableUploadShowsOneRowWithTheConfirmedOffset() throws {
        let harness = try InspectorHarness()
        _ = harness.server.serveTus()
        let file = try folder().appendingPathComponent("photo.jpg")
        try Data(count: Self.size).write(to: file)
        var resumable = ResumableUpload.tus
        resumable.chunkSize = 65_536
        // The creation and four appends.
        send(
            NetworkRequest<URL>.upload(urlString: "/files", fileURL: file, resumable: resumable), harness,
            finishes: 5)

        let transfers = try servedTransfers(harness)
        XCTAssertEqual(transfers.count, 1, "\(transfers)")
        let upload = try XCTUnwrap(transfers.first)
        XCTAssertEqual(upload["kind"] as? String, "upload")
        XCTAssertTrue(
            (upload["url"] as? String ?? "").contains("/tus-uploads/upload-"), "the upload's own URL")
        XCTAssertEqual(upload["bytes"] as? Int, Self.size)
        XCTAssertEqual(upload["total"] as? Int, Self.size)
        XCTAssertEqual(upload["offset"] as? Int, Self.size)
        XCTAssertEqual(upload["state"] as? String, "finished")
    }
}
