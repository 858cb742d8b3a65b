import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// What a stored transfer keeps for the next launch: the retry policy it was sent with (or one the resume
/// names), and the offset of each append the server acknowledged; and `close()` letting go of the folder.
final class TransferStoreResumeTests: XCTestCase {
    private static let mebibyte = 1 << 20

    /// An upload of `size` bytes sent through a store in a new folder with `policy`, whose first append
    /// the server refuses with a `400` (never retried): it fails, and its store is closed. Returns the
    /// store's directory and the source.
    private func failedUpload(
        to server: MockServer, _ tus: TusHandler, size: Int = 2 << 20, policy: RetryPolicy
    ) throws -> (URL, URL) {
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("photo.jpg"), size: size)
        let directory = folder.appendingPathComponent("store")
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        defer { store.close() }
        tus.failNextAppend(status: 400)
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        request.retryPolicy = policy
        let outcome = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .unacceptableStatusCode(400, _, _)? = outcome?.error else {
            XCTFail("the refused append fails the upload: \(String(describing: outcome))")
            return (directory, source)
        }
        return (directory, source)
    }

    func testAStoreResumedUploadKeepsThePolicyItWasSentWithAndARetried503Finishes() throws {
        let (server, tus) = try tusServer()
        let (directory, source) = try failedUpload(
            to: server, tus, policy: RetryPolicy(maximumAttempts: 3, initialDelay: 0))
        // The next launch: a layer without a retry policy of its own.
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        addTeardownBlock { store.close() }
        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        tus.failNextAppend(status: 503)

        let outcome = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }

        XCTAssertNotNil(outcome?.value, String(describing: outcome))
        XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[0]), try BigFile.sha256(of: source))
        XCTAssertEqual(store.unfinishedTransfers, [])
    }

    func testAResumeNamingAPolicyUsesIt() throws {
        let (server, tus) = try tusServer()
        let (directory, source) = try failedUpload(to: server, tus, policy: RetryPolicy.none)
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        addTeardownBlock { store.close() }
        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        tus.failNextAppend(status: 503)

        let outcome = try transferOutcome {
            try store.resume(
                transfer, retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0), successHandler: $0,
                errorHandler: $1)
        }

        XCTAssertNotNil(outcome?.value, String(describing: outcome))
        XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[0]), try BigFile.sha256(of: source))
    }

    /// A drop in the third append, against a server keeping nothing of it: the record says two appends
    /// are done, not nothing.
    func testCompletedBytesAdvancesWithEachAppendTheServerAcknowledged() throws {
        let (server, tus) = try tusServer()
        tus.keepsInterruptedAppends = false
        let tusBody = tus.bodyHandler
        // Armed once the second append is claimed: the third is cut in the middle.
        server.bodyHandler = { request in
            let receiver = tusBody(request)
            if request.header("Upload-Offset") == String(Self.mebibyte) {
                tus.cutNextAppend(afterBytes: Self.mebibyte / 2)
            }
            return receiver
        }
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: 4 * Self.mebibyte)
        let directory = folder.appendingPathComponent("store")
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        request.retryPolicy = RetryPolicy.none

        let outcome = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        store.close()

        XCTAssertNotNil(outcome?.error, "the cut fails the upload")
        let next = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        addTeardownBlock { next.close() }
        XCTAssertEqual(next.unfinishedTransfers.map(\.completedBytes), [Int64(2 * Self.mebibyte)])
    }

    func testClosingReleasesTheFolderAtOnceAndCancelsWhatRunsKeepingItsRecord() throws {
        let (server, tus) = try tusServer()
        // The creation waits, so the upload is running when the store closes.
        let tusHandler = tus.handler
        server.handler = { request in
            let reply = try tusHandler(request)
            return request.method == "POST" ? reply.delayed(beforeHeaders: 1) : reply
        }
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: 1 << 20)
        let directory = folder.appendingPathComponent("store")
        let layer = NetworkLayer(baseURL: server.baseURL)
        let store = try TransferStore(directory: directory, layer: layer)
        let request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        let ended = expectation(description: "the running upload ends")
        let failure = Locked<NetworkError?>(nil)
        try store.send(
            request, successHandler: { _ in ended.fulfill() },
            errorHandler: { error in
                failure.withLock { $0 = error }
                ended.fulfill()
            })

        store.close()

        // Kept alive: the folder is released by `close()`, not by the store going away.
        try withExtendedLifetime(store) {
            let next = try TransferStore(directory: directory, layer: layer)
            addTeardownBlock { next.close() }
            XCTAssertEqual(next.unfinishedTransfers.map(\.file), [source], "the record stays")
            wait(for: [ended], timeout: 10)
            guard case .cancelled? = failure.withLock({ $0 }) else {
                return XCTFail("expected cancelled, got \(String(describing: failure.withLock { $0 }))")
            }
            XCTAssertThrowsError(try store.send(request, successHandler: { _ in }, errorHandler: { _ in })) {
                XCTAssertEqual($0 as? TransferStoreError, .closed)
            }
            let transfer = try XCTUnwrap(next.unfinishedTransfers.first)
            XCTAssertThrowsError(try store.resume(transfer, successHandler: { _ in }, errorHandler: { _ in }))
            {
                XCTAssertEqual($0 as? TransferStoreError, .closed)
            }
        }
    }
}
