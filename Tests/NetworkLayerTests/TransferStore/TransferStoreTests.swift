import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// The transfer store in one process: what it records (never credentials), resuming from the server's
/// offset, a changed source refused or started over, the directory claimed once, and a test double.
final class TransferStoreTests: XCTestCase {
    private static let size = 4 << 20

    /// An upload whose first append the server cuts at half: it fails (no retries), and stays stored.
    private func failedUpload(
        _ server: MockServer, _ tus: TusHandler, deliversImmediately: Bool = false
    ) throws -> (TransferStore, URL, URL) {
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: Self.size)
        let directory = folder.appendingPathComponent("store")
        // Credentials come from interceptors, at send time: the store refuses them in the request.
        let layer = NetworkLayer(
            baseURL: server.baseURL, deliversImmediately: deliversImmediately,
            interceptors: [
                SettingHeader(name: "Authorization", value: "Bearer secret-token"),
                SettingHeader(name: "X-Api-Key", value: "secret-key"),
            ])
        let store = try TransferStore(directory: directory, layer: layer)
        tus.cutNextAppend(afterBytes: Self.size / 2)
        // The rest of the file in one append, kept by the record for the resume: the cut lands mid-append.
        var resumable = ResumableUpload.tus
        resumable.chunkSize = .max
        var request = NetworkRequest.upload(
            urlString: "files", fileURL: source, resumable: resumable, headers: ["X-Trace": "kept"])
        request.retryPolicy = RetryPolicy.none
        let outcome = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .failure = outcome else {
            XCTFail("the cut append fails the upload: \(String(describing: outcome))")
            return (store, source, directory)
        }
        return (store, source, directory)
    }

    func testAFailedUploadStaysStoredWithoutCredentialsAndResumesFromTheServersOffset() throws {
        let (server, tus) = try tusServer()
        let (store, source, directory) = try failedUpload(server, tus)

        let transfers = store.unfinishedTransfers
        XCTAssertEqual(transfers.map(\.kind), [.upload])
        XCTAssertEqual(transfers.first?.file, source)
        XCTAssertEqual(transfers.first?.expectedBytes, Int64(Self.size))
        let records = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".transfer")
        }
        XCTAssertEqual(records.count, 1)
        let stored = try String(
            decoding: Data(contentsOf: directory.appendingPathComponent(records[0])), as: UTF8.self)
        XCTAssertFalse(stored.contains("secret"), "no credential on disk")
        XCTAssertTrue(stored.contains("X-Trace"))
        XCTAssertTrue(stored.contains("tus-uploads"), "the upload URL is recorded after creation")

        let transfer = try XCTUnwrap(transfers.first)
        let outcome = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }
        XCTAssertNotNil(try outcome?.get())
        XCTAssertEqual(tus.storedFiles.count, 1, "not created again")
        XCTAssertEqual(tus.appends.last?.offset, Int64(Self.size / 2), "the rest only, after a HEAD")
        XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[0]), try BigFile.sha256(of: source))
        XCTAssertEqual(store.unfinishedTransfers, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["lock"])
        XCTAssertThrowsError(try store.resume(transfer, successHandler: { _ in }, errorHandler: { _ in })) {
            XCTAssertEqual($0 as? TransferStoreError, .notFound)
        }
    }

    /// The form appends take on Apple platforms (`uploadTask(fromFile:)`) resumes byte-exact from the
    /// server's offset. Only the resumption is sent natively: on Linux a cut in the middle of a natively sent
    /// file can stop the process (FoundationNetworking's file body source unpauses a handle whose connection
    /// is gone, `EasyHandle.swift:484`; 2 runs in 25 here), so the cut happens in a run sending as Linux does.
    func testAStoredUploadResumesByteExactWithAppendsSentNatively() throws {
        let (server, tus) = try tusServer()
        // The first run's store lets go of the directory when it goes, as at a relaunch: once its ended run
        // has let go of it too, just after the error handler ran.
        weak var first: TransferStore?
        let (source, directory) = try { () throws -> (URL, URL) in
            let (store, source, directory) = try failedUpload(server, tus)
            first = store
            return (source, directory)
        }()
        wait(for: [expectation(for: NSPredicate { _, _ in first == nil }, evaluatedWith: nil)], timeout: 10)
        let native = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        native.sendsUploadsNatively = true
        let store = try TransferStore(directory: directory, layer: native)
        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)

        let outcome = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }

        XCTAssertNotNil(try outcome?.get())
        XCTAssertEqual(tus.appends.map(\.offset), [0, Int64(Self.size / 2)], "the rest only, after a HEAD")
        XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[0]), try BigFile.sha256(of: source))
    }

    func testAStoredDraftUploadResumesWithTheDraft() throws {
        let server = MockServer(maxRequestBodySize: Self.size * 2)
        let draft = server.serveResumableUploads()
        try server.start()
        addTeardownBlock {
            server.stop()
            draft.removeStoredFiles()
        }
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: Self.size)
        let store = try TransferStore(
            directory: folder.appendingPathComponent("store"), layer: NetworkLayer(baseURL: server.baseURL))
        draft.cutNextAppend(afterBytes: Self.size / 2)
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .ietfDraft)
        request.retryPolicy = RetryPolicy.none
        let cut = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .failure = cut else { return XCTFail("\(String(describing: cut))") }

        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        let outcome = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }
        XCTAssertNotNil(try outcome?.get())
        XCTAssertEqual(draft.storedFiles.count, 1, "not created again")
        XCTAssertEqual(try BigFile.sha256(of: draft.storedFiles[0]), try BigFile.sha256(of: source))
        XCTAssertEqual(store.unfinishedTransfers, [])
    }

    func testACancelledStoredDraftUploadStaysOnTheServerAndResumesFromItsOffset() throws {
        let server = MockServer(maxRequestBodySize: Self.size * 2)
        let draft = server.serveResumableUploads()
        try server.start()
        addTeardownBlock {
            server.stop()
            draft.removeStoredFiles()
        }
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: Self.size)
        let store = try TransferStore(
            directory: folder.appendingPathComponent("store"),
            // Off the main queue, which the test blocks while it takes the server's requests.
            layer: NetworkLayer(baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "StoredDraft")))
        draft.failNextAppend(status: 503)
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .ietfDraft)
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 30, maximumDelay: 30)
        let cancelled = expectation(description: "cancelled")
        let task = try store.send(
            request, successHandler: { _ in XCTFail("succeeded") },
            errorHandler: { error in
                XCTAssertEqual(error.message, NetworkError.cancelled.message)
                cancelled.fulfill()
            })
        XCTAssertEqual(server.takeRequest(timeout: 10)?.method, "POST")
        XCTAssertEqual(server.takeRequest(timeout: 10)?.method, "PATCH")  // answered 503: a 30 s wait follows
        task.cancel()
        wait(for: [cancelled], timeout: 10)

        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        let outcome = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }
        XCTAssertNotNil(try outcome?.get())
        let methods = server.recordedRequests.map(\.method)
        XCTAssertFalse(methods.contains("DELETE"), "a stored upload is kept for resume: \(methods)")
        XCTAssertEqual(methods.filter { $0 == "POST" }.count, 1, "not created again: \(methods)")
        XCTAssertEqual(
            try BigFile.sha256(of: try XCTUnwrap(draft.storedFiles.first)), try BigFile.sha256(of: source))
    }

    func testAChangedSourceFailsWhenTheCallerSaysSoAndStaysStored() throws {
        let (server, tus) = try tusServer()
        let (store, source, _) = try failedUpload(server, tus)
        let handle = try FileHandle(forWritingTo: source)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more".utf8))
        try handle.close()

        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        let outcome = try transferOutcome {
            try store.resume(transfer, ifSourceChanged: .fail, successHandler: $0, errorHandler: $1)
        }
        guard case .failure(.sourceFileChanged(let file)) = outcome else {
            return XCTFail("\(String(describing: outcome))")
        }
        XCTAssertEqual(file, source)
        XCTAssertEqual(store.unfinishedTransfers.map(\.id), [transfer.id])
        XCTAssertEqual(tus.appends.count, 1, "nothing more sent")
    }

    /// A resume refused before anything is sent ends as any call of its layer does: for a layer that
    /// delivers immediately, in place, before `resume` returns.
    func testARefusedResumeIsToldInPlaceByALayerThatDeliversImmediately() throws {
        let (server, tus) = try tusServer()
        let (store, source, _) = try failedUpload(server, tus, deliversImmediately: true)
        try BigFile.make(at: source, size: Self.size + 1000, seed: 7)

        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        let told = Locked<NetworkError?>(nil)
        try store.resume(
            transfer, successHandler: { _ in XCTFail("resumed") },
            errorHandler: { error in told.withLock { $0 = error } })
        guard case .sourceFileChanged? = told.withLock({ $0 }) else {
            return XCTFail("not told before resume returned: \(String(describing: told.withLock { $0 }))")
        }
    }

    func testAChangedSourceStartsOverWhenTheCallerSaysSo() throws {
        let (server, tus) = try tusServer()
        let (store, source, _) = try failedUpload(server, tus)
        try BigFile.make(at: source, size: Self.size + 1000, seed: 7)

        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        let outcome = try transferOutcome {
            try store.resume(transfer, ifSourceChanged: .startOver, successHandler: $0, errorHandler: $1)
        }
        XCTAssertNotNil(try outcome?.get())
        XCTAssertEqual(tus.storedFiles.count, 2, "created again")
        XCTAssertEqual(tus.appends.last?.offset, 0, "the whole new file")
        XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[1]), try BigFile.sha256(of: source))
        XCTAssertEqual(store.unfinishedTransfers, [])
    }

    func testACutDownloadStaysStoredWithItsBytesAndResumesWithARange() throws {
        let folder = try makeOutboxFolder()
        let data = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let reply = MockResponse(headers: ["ETag": "\"v1\""], body: data).supportingRanges()
        let server = try startedServer()
        server.enqueue(reply.withFault(.disconnectMidBody))
        server.enqueue(reply)
        let directory = folder.appendingPathComponent("store")
        let layer = NetworkLayer(
            baseURL: server.baseURL, interceptors: [SettingHeader(name: "X-Auth-Token", value: "secret")])
        let store = try TransferStore(directory: directory, layer: layer)
        let destination = folder.appendingPathComponent("file.bin")
        var request = NetworkRequest.download(
            urlString: "file", to: destination, headers: ["X-Trace": "kept"])
        request.retryPolicy = RetryPolicy.none

        let cut = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .failure = cut else { return XCTFail("\(String(describing: cut))") }
        let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
        XCTAssertEqual(transfer.kind, .download)
        XCTAssertEqual(transfer.completedBytes, Int64(data.count / 2), "the bytes in the partial file")
        XCTAssertEqual(transfer.expectedBytes, Int64(data.count))
        XCTAssertEqual(transfer.remoteURL, server.baseURL.appendingPathComponent("file"))

        let resumed = try transferOutcome { try store.resume(transfer, successHandler: $0, errorHandler: $1) }
        XCTAssertEqual(try resumed?.get(), destination)
        XCTAssertEqual(try Data(contentsOf: destination), data)
        let second = try XCTUnwrap(server.recordedRequests.last)
        XCTAssertEqual(second.header("Range"), "bytes=\(data.count / 2)-")
        XCTAssertEqual(second.header("X-Auth-Token"), "secret", "the interceptor's, at send time")
        XCTAssertEqual(second.header("X-Trace"), "kept", "stored")
        XCTAssertEqual(store.unfinishedTransfers, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["lock"])
    }

    func testTheDirectoryIsClaimedOnceAndReleasedWithItsStore() throws {
        let directory = try makeOutboxFolder()
        let layer = NetworkLayer(baseURL: URL(string: "http://127.0.0.1:1"))
        var store: TransferStore? = try TransferStore(directory: directory, layer: layer)
        XCTAssertThrowsError(try TransferStore(directory: directory, layer: layer)) {
            XCTAssertEqual($0 as? TransferStoreError, .inUse)
        }
        XCTAssertNotNil(store)
        store = nil
        XCTAssertNoThrow(try TransferStore(directory: directory, layer: layer))
    }

    func testADamagedRecordIsSetAsideAndANewerOnesNameIsNotReused() throws {
        let directory = try makeOutboxFolder()
        try Data("not a record".utf8).write(
            to: directory.appendingPathComponent("00000000000000000007.transfer"))
        let newer = DurableRecord.encode(Data("{}".utf8), contentVersion: TransferRecord.version + 1)
        try newer.write(to: directory.appendingPathComponent("00000000000000000009.transfer"))
        let (server, _) = try tusServer()
        let source = try BigFile.make(at: directory.appendingPathComponent("a.bin"), size: 10)
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        XCTAssertEqual(store.unfinishedTransfers, [])

        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        request.retryPolicy = RetryPolicy.none
        let task = try store.send(request, successHandler: { _ in }, errorHandler: { _ in })
        task.cancel()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(
            names,
            [
                "00000000000000000007.transfer.damaged", "00000000000000000009.transfer",
                "00000000000000000010.transfer", "a.bin", "lock",
            ])
    }

    func testAPlainRequestIsRefused() throws {
        let folder = try makeOutboxFolder()
        let file = try BigFile.make(at: folder.appendingPathComponent("a.bin"), size: 10)
        let store = try TransferStore(
            directory: folder.appendingPathComponent("store"),
            layer: NetworkLayer(baseURL: URL(string: "http://127.0.0.1:1")))
        let plain = NetworkRequest<URL>.upload(urlString: "files", fileURL: file)
        XCTAssertThrowsError(try store.send(plain, successHandler: { _ in }, errorHandler: { _ in })) {
            guard case .unsupportedRequest = $0 as? TransferStoreError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(store.unfinishedTransfers, [])
    }

    func testAStoredUploadTheServerHasWholeSucceedsWithoutAppending() throws {
        let (server, tus) = try tusServer()
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: 1000)
        let layer = NetworkLayer(baseURL: server.baseURL)
        let request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        let uploaded = try XCTUnwrap(
            try transferOutcome { layer.send(request, successHandler: $0, errorHandler: $1) }?.get())

        // As after a kill between the last acknowledgement and the record's removal.
        var again = request
        again.uploadJournal = FixedJournal(resumePoint: (uploaded, 0))
        let outcome = try transferOutcome { layer.send(again, successHandler: $0, errorHandler: $1) }
        XCTAssertEqual(try outcome?.get(), uploaded)
        XCTAssertEqual(tus.appends.count, 1, "nothing appended to a complete upload")
        XCTAssertEqual(tus.storedFiles.count, 1)
    }

    func testWithATestDoubleTheUploadIsAPlainOneAndItsRecordGoes() throws {
        let folder = try makeOutboxFolder()
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: 1000)
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.post, "/files", returning: Data())
        let store = try TransferStore(directory: folder.appendingPathComponent("store"), layer: network)

        let outcome = try transferOutcome {
            try store.send(
                .upload(urlString: "files", fileURL: source, resumable: .tus), successHandler: $0,
                errorHandler: $1)
        }
        XCTAssertEqual(try outcome?.get(), URL(string: "https://api.example.com/files"))
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post])
        XCTAssertEqual(store.unfinishedTransfers, [])
    }
}

private struct FixedJournal: UploadJournal {
    let resumePoint: (uploadURL: URL, offset: Int64)?
    func created(_ uploadURL: URL, then next: @escaping @Sendable () -> Void) { next() }
    func acknowledged(_ offset: Int64) {}
}
