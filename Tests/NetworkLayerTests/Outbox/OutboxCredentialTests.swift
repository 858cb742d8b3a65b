import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// No credential reaches an outbox's files: a request carrying a header from the layer's one list is
/// refused (never silently left out), and credentials added at send time by interceptors go out.
final class OutboxCredentialTests: XCTestCase {
    private let callbacks = DispatchQueue(label: "test.outbox.credentials")

    private func files(in folder: URL) throws -> [URL] {
        let url = folder.appendingPathComponent("outbox.outbox")
        return try FileManager.default.contentsOfDirectory(atPath: url.path).map {
            url.appendingPathComponent($0)
        }
    }

    func testEveryCredentialHeaderOnTheLayersListIsRefusedByName() throws {
        let server = try startedServer(created)
        let folder = try makeOutboxFolder()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: callbacks,
            redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Session-Token"]))
        let outbox = try Outbox(directory: folder, layer: network, options: quickOutboxOptions())
        let names = [
            "X-Api-Key", "x-auth-token", "X-Session-Token", "Authorization", "Cookie", "Proxy-Authorization",
        ]

        for name in names {
            let request = OutboxRequest(
                .post, "items", query: ["page": "1"], headers: [name: "s3cret", "X-Trace": "t1"],
                body: .json(["index": 0]), kind: "item", account: .any)
            XCTAssertThrowsError(try outbox.enqueue(request), name) { error in
                guard case .credentialHeaders(let refused) = error as? OutboxError else {
                    return XCTFail("\(name): \(error)")
                }
                XCTAssertEqual(refused, [name])
                let message = (error as? OutboxError)?.message ?? ""
                XCTAssertTrue(message.contains("`\(name)`"), message)
                XCTAssertTrue(message.contains("interceptor"), message)
                XCTAssertTrue(message.contains("BearerTokenAuthenticator"), message)
            }
        }

        XCTAssertEqual(outbox.items, [])
        XCTAssertEqual(try files(in: folder).map(\.lastPathComponent), ["lock"], "nothing stored")
        XCTAssertEqual(server.requestCount, 0, "nothing sent")
    }

    func testARequestWithoutCredentialsIsStoredAndNoCredentialReachesTheDisk() throws {
        let server = try startedServer { _ in MockResponse(status: 422, text: "rejected") }
        let folder = try makeOutboxFolder()
        let authenticator = BearerTokenAuthenticator(accessToken: nil) { completion in
            completion(.failure(.custom("no refresh in this test")))
        }
        authenticator.setAccessToken("token-s3cret", account: "alice")
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: callbacks,
            interceptors: [SettingHeader(name: "X-Api-Key", value: "key-s3cret"), authenticator])
        let outbox = try Outbox(directory: folder, layer: network, options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)

        try outbox.enqueue(
            OutboxRequest(
                .put, "profile", headers: ["X-Trace": "t1"],
                body: .data(Data("{\"name\":\"A\"}".utf8), contentType: "application/json"), kind: "profile"))
        // Stored again as a dead letter after an attempt that carried the credentials.
        XCTAssertTrue(log.waitForDeadLetters(1))

        let sent = try XCTUnwrap(server.recordedRequests.first)
        XCTAssertEqual(sent.header("X-Api-Key"), "key-s3cret", "added at send time")
        XCTAssertEqual(sent.header("Authorization"), "Bearer token-s3cret")
        let items = try files(in: folder).filter { $0.pathExtension == "item" }
        XCTAssertEqual(items.count, 1)
        for file in try files(in: folder) {
            let bytes = try Data(contentsOf: file)
            XCTAssertNil(bytes.range(of: Data("s3cret".utf8)), "a credential in \(file.lastPathComponent)")
        }
        let stored = try Data(contentsOf: XCTUnwrap(items.first))
        XCTAssertNotNil(stored.range(of: Data("X-Trace".utf8)), "the item's own headers are stored")
        XCTAssertEqual(outbox.items.first?.headers, ["X-Trace": "t1", "Content-Type": "application/json"])
    }
}
