import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// No credential reaches a transfer store's records: `send` refuses a request carrying a header from the
/// layer's one list (the request's own redirect policy's names included), records and sends nothing, and
/// names the interceptor route.
final class TransferStoreCredentialTests: XCTestCase {
    func testEveryCredentialHeaderOnTheListIsRefusedAndNothingIsRecordedOrSent() throws {
        let server = try startedServer { _ in MockResponse(text: "file") }
        let folder = try makeOutboxFolder()
        let directory = folder.appendingPathComponent("store")
        let layer = NetworkLayer(
            baseURL: server.baseURL, redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Session-Token"]))
        let store = try TransferStore(directory: directory, layer: layer)
        let source = folder.appendingPathComponent("video.mp4")
        try Data(repeating: 7, count: 1_000).write(to: source)
        let destination = folder.appendingPathComponent("file.bin")
        let names = [
            "X-Api-Key", "x-auth-token", "X-Session-Token", "Authorization", "Cookie", "X-Own-Secret",
        ]

        for name in names {
            var download = NetworkRequest.download(
                urlString: "file", to: destination, headers: [name: "s3cret", "X-Trace": "t1"])
            var upload = NetworkRequest.upload(
                urlString: "files", fileURL: source, resumable: .tus, headers: [name: "s3cret"])
            // A name the request's own policy adds counts too.
            download.redirectPolicy = RedirectPolicy(credentialHeaders: ["X-Own-Secret"])
            upload.redirectPolicy = download.redirectPolicy
            for request in [download, upload] {
                XCTAssertThrowsError(
                    try store.send(request, successHandler: { _ in }, errorHandler: { _ in }), name
                ) { error in
                    XCTAssertEqual(error as? TransferStoreError, .credentialHeaders([name]))
                    let message = (error as? TransferStoreError)?.message ?? ""
                    XCTAssertTrue(message.contains("`\(name)`"), message)
                    XCTAssertTrue(message.contains("interceptor"), message)
                }
            }
        }

        XCTAssertEqual(store.unfinishedTransfers, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["lock"])
        XCTAssertEqual(server.requestCount, 0)
    }

    func testARequestWithoutCredentialsIsRecordedAndNoCredentialReachesTheDisk() throws {
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        let reply = MockResponse(headers: ["ETag": "\"v1\""], body: data).supportingRanges()
        let server = try startedServer()
        server.enqueue(reply.withFault(.disconnectMidBody))
        let folder = try makeOutboxFolder()
        let directory = folder.appendingPathComponent("store")
        let layer = NetworkLayer(
            baseURL: server.baseURL,
            interceptors: [
                SettingHeader(name: "X-Api-Key", value: "key-s3cret"),
                SettingHeader(name: "Authorization", value: "Bearer token-s3cret"),
            ])
        let store = try TransferStore(directory: directory, layer: layer)
        var request = NetworkRequest.download(
            urlString: "file", to: folder.appendingPathComponent("file.bin"), headers: ["X-Trace": "t1"])
        request.retryPolicy = RetryPolicy.none
        let ended = expectation(description: "the cut download fails")
        try store.send(request, successHandler: { _ in }, errorHandler: { _ in ended.fulfill() })
        wait(for: [ended], timeout: 10)

        XCTAssertEqual(server.recordedRequests.first?.header("X-Api-Key"), "key-s3cret", "added at send time")
        let records = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".transfer")
        }
        XCTAssertEqual(records.count, 1)
        let bytes = try Data(contentsOf: directory.appendingPathComponent(records[0]))
        XCTAssertNil(bytes.range(of: Data("s3cret".utf8)), "no credential on disk")
        XCTAssertNotNil(bytes.range(of: Data("X-Trace".utf8)), "the request's own headers are recorded")
    }
}
