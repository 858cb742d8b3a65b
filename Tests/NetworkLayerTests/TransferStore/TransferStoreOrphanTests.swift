import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// What a kill right after an upload's creation leaves on the server.
final class TransferStoreOrphanTests: XCTestCase {
    /// The first append goes only once the record holds the upload's URL: a kill before that leaves an
    /// empty upload on the server (created again at the next launch), never one holding bytes. The store's
    /// queue is held from the creation's reply, so a record written late shows at the first `PATCH`.
    func testTheFirstAppendWaitsForTheRecordToHoldTheUploadURL() throws {
        let (server, tus) = try tusServer()
        let folder = try makeOutboxFolder()
        let directory = folder.appendingPathComponent("store")
        let source = try BigFile.make(at: folder.appendingPathComponent("video.mp4"), size: 1000)
        let store = try TransferStore(directory: directory, layer: NetworkLayer(baseURL: server.baseURL))
        addTeardownBlock { store.close() }
        let gate = DispatchSemaphore(value: 0)
        let recordedAtFirstAppend = Locked<[String?]>([])
        let (tusHandler, tusBodyHandler) = (tus.handler, tus.bodyHandler)
        // An append's body streams to the body handler: its head arrives there first.
        server.bodyHandler = { request in
            if request.method == "PATCH", recordedAtFirstAppend.withLock({ $0.isEmpty }) {
                recordedAtFirstAppend.withLock { $0.append(Self.recordedUploadURL(in: directory)) }
                gate.signal()
            }
            return tusBodyHandler(request)
        }
        server.handler = { request in
            let reply = try tusHandler(request)
            // Bounded: once the engine waits for the record, nothing else lets the queue go.
            if request.method == "POST" { store.queue.async { _ = gate.wait(timeout: .now() + 1) } }
            return reply
        }

        let outcome = try transferOutcome {
            try store.send(
                .upload(urlString: "files", fileURL: source, resumable: .tus), successHandler: $0,
                errorHandler: $1)
        }
        guard case .success = outcome else { return XCTFail(String(describing: outcome)) }
        let recorded = recordedAtFirstAppend.withLock { $0 }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertNotNil(recorded.first ?? nil, "the first append went before the record held the URL")
    }

    /// The upload URL in the one record in `directory`, as a later launch would read it.
    private static func recordedUploadURL(in directory: URL) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard let name = names.first(where: { $0.hasSuffix(".transfer") }),
            let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path),
            let stored = try? DurableRecord.decode(bytes),
            let record = try? JSONDecoder().decode(TransferRecord.self, from: stored.payload)
        else { return nil }
        return record.uploadURL
    }
}
