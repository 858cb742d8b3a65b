import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

extension XCTestCase {
    /// A new, empty folder for this test's files, removed when the test ends.
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkLayerTransferTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The names of the files in `folder`, sorted.
    func fileNames(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Writes `data` to a new file in `folder`.
    func writeFile(_ data: Data, named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}

/// What a transfer's handlers did, in order: each progress call, then the end.
final class TransferLog: @unchecked Sendable {
    enum Event: Equatable {
        case progress(TransferProgress)
        case finished
    }

    private let lock = NSLock()
    private var stored: [(event: Event, at: UInt64, isMain: Bool)] = []

    /// A progress handler that records each call.
    var progress: (TransferProgress) -> Void {
        { progress in self.append(.progress(progress)) }
    }

    /// Records the end (call it first thing in the success or error handler).
    func finish() {
        append(.finished)
    }

    var events: [Event] { lock.withLock { stored.map(\.event) } }

    var reports: [TransferProgress] {
        events.compactMap { event in
            if case .progress(let progress) = event { return progress }
            return nil
        }
    }

    /// Seconds between the first and the last progress call.
    var span: TimeInterval {
        lock.withLock {
            let times = stored.filter { $0.event != .finished }.map(\.at)
            guard let first = times.first, let last = times.last else { return 0 }
            return TimeInterval(last - first) / 1e9
        }
    }

    var allOnMainThread: Bool { lock.withLock { stored.allSatisfy(\.isMain) } }

    private func append(_ event: Event) {
        let now = DispatchTime.now().uptimeNanoseconds
        let isMain = Thread.isMainThread
        lock.withLock { stored.append((event, now, isMain)) }
    }

    /// Checks the progress contract: on the main queue, counts that only grow, no more than about 30
    /// calls a second, and a last call reporting `total` bytes just before the end.
    func assertContract(total: Int64, expected: Int64?, file: StaticString = #filePath, line: UInt = #line) {
        let reports = reports
        XCTAssertEqual(events.last, .finished, "the end comes last", file: file, line: line)
        XCTAssertEqual(
            events.dropLast().last,
            .progress(TransferProgress(completedBytes: total, expectedBytes: expected)),
            "the last progress call reports every byte", file: file, line: line)
        for (earlier, later) in zip(reports, reports.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.completedBytes, earlier.completedBytes, file: file, line: line)
        }
        XCTAssertLessThanOrEqual(
            Double(reports.count), 30 * span + 3, "calls per second", file: file, line: line)
        XCTAssertTrue(allOnMainThread, "progress on the callback queue", file: file, line: line)
    }
}

extension MockResponse {
    /// A 200 reply of `data` with an ETag, answering byte ranges.
    static func file(_ data: Data, etag: String = "\"v1\"") -> MockResponse {
        MockResponse(headers: ["ETag": etag, "Content-Type": "application/octet-stream"], body: data)
            .supportingRanges()
    }
}

extension ResumableUpload {
    /// tus with the rest of the file in one append: the shape the resume tests were written for, so a cut
    /// in the middle of an append lands where they say (chunks: `ResumableUploadChunkTests`).
    static var tusInOneAppend: ResumableUpload {
        var resumable = ResumableUpload.tus
        resumable.chunkSize = .max
        return resumable
    }

    /// The IETF draft with the rest of the file in one append (see ``tusInOneAppend``).
    static var ietfDraftInOneAppend: ResumableUpload {
        var resumable = ResumableUpload.ietfDraft
        resumable.chunkSize = .max
        return resumable
    }
}
