import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// Over 1,000 cancels at random moments of uploads sent through a `TransferStore`, each followed by
/// `resume`, which asks the server for its offset and sends the rest: every attempt's handler runs
/// exactly once, every upload completes byte-exact on the server, and the store is empty at the end.
final class TransferStoreCancelStressTests: XCTestCase {
    func testAThousandCancelsAndResumesThroughTheStoreEndOnceAndCompleteByteExact() throws {
        let server = MockServer(maxRequestBodySize: 2 << 20)
        let tus = server.serveTus()
        try server.start()
        addTeardownBlock {
            server.stop()
            tus.removeStoredFiles()
        }
        let folder = try makeOutboxFolder()
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "TransferStoreCancelStress"))
        let store = try TransferStore(directory: folder.appendingPathComponent("store"), layer: network)
        let stress = StoreStress(
            store: store, folder: folder, serverFiles: tus.directory, cancels: 1000, seed: 0x37_2000)
        let done = expectation(description: "every upload completed")

        stress.start(concurrency: 8) { done.fulfill() }

        wait(for: [done], timeout: 120)
        let report = stress.report
        XCTAssertGreaterThanOrEqual(report.cancels, 1000)
        XCTAssertGreaterThan(report.cancelledEndings, 500, "most cancels came before the upload's end")
        XCTAssertEqual(report.endings.filter { $0.value != 1 }.count, 0, "attempts not ended once")
        XCTAssertEqual(report.attempts, report.endings.count, "attempts without an ending")
        XCTAssertEqual(report.completed, report.uploads)
        XCTAssertEqual(report.mismatched, [], "stored files that differ from their source")
        XCTAssertEqual(report.unexpected, [], "endings other than success or cancelled")
        let resumedAppends = tus.appends.filter { $0.offset > 0 }.count
        XCTAssertGreaterThan(resumedAppends, 0, "no resume found bytes on the server")
        print(
            "TransferStoreCancelStressTests: \(report.uploads) uploads, \(report.attempts) attempts, "
                + "\(report.cancels) cancels, \(report.cancelledEndings) ended cancelled, "
                + "\(resumedAppends) appends resumed from an offset")
        XCTAssertEqual(store.unfinishedTransfers, [])
        XCTAssertEqual(network.scheduledCount, 0)
        XCTAssertEqual(network.runningRequests.count, 0)
    }
}

private struct StressReport {
    var uploads = 0
    var attempts = 0
    var cancels = 0
    var completed = 0
    var cancelledEndings = 0
    var endings: [Int: Int] = [:]
    var mismatched: [Int] = []
    var unexpected: [String] = []
}

/// Uploads, each from a file of its own (256 KiB to 1 MiB), sent through the store, cancelled after a
/// random 0–12 ms from another thread and resumed, until the cancels reach the goal; the last attempt of
/// each upload runs to its end.
private final class StoreStress: @unchecked Sendable {
    // @unchecked: `random` and `state` are used under `state`'s lock only; the rest is set in `init`.
    private struct State {
        var report = StressReport()
        var random: UInt64
        var running = 0
        var finished = false
    }

    private let store: TransferStore
    private let folder: URL
    private let serverFiles: URL
    private let goal: Int
    private let state: Locked<State>
    private var whenDone: (@Sendable () -> Void)?

    init(store: TransferStore, folder: URL, serverFiles: URL, cancels: Int, seed: UInt64) {
        self.store = store
        self.folder = folder
        self.serverFiles = serverFiles
        goal = cancels
        state = Locked(State(random: seed))
    }

    var report: StressReport { state.withLock { $0.report } }

    func start(concurrency: Int, whenDone: @escaping @Sendable () -> Void) {
        self.whenDone = whenDone
        for _ in 0..<concurrency { startNextUpload() }
    }

    /// A new upload while cancels are wanted; the end of the run once none runs.
    private func startNextUpload() {
        let next: (number: Int, size: Int)? = state.withLock { state in
            guard state.report.cancels < goal else { return nil }
            state.running += 1
            state.report.uploads += 1
            return (state.report.uploads, (256 << 10) + Int(Self.next(&state.random) % UInt64(768 << 10)))
        }
        guard let next else { return endIfIdle() }
        do {
            let file = folder.appendingPathComponent("upload-\(next.number).bin")
            try BigFile.make(at: file, size: next.size, seed: UInt64(next.number))
            var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tus)
            request.retryPolicy = RetryPolicy.none
            attempt(upload: next.number, file: file) { success, failure in
                try self.store.send(request, successHandler: success, errorHandler: failure)
            }
        } catch {
            state.withLock { $0.report.unexpected.append("upload \(next.number): \(error)") }
            ended(upload: next.number, file: nil)
        }
    }

    /// Starts one attempt, and cancels it a random moment later unless the goal is met.
    private func attempt(
        upload: Int, file: URL,
        start: (@escaping (NetworkResponse<URL>) -> Void, @escaping (NetworkError) -> Void) throws ->
            any NetworkTask
    ) {
        let (id, delay) = state.withLock { state -> (Int, Double?) in
            state.report.attempts += 1
            let wantsCancel = state.report.cancels < goal
            if wantsCancel { state.report.cancels += 1 }
            let delay = Double(Self.next(&state.random) % 12_000) / 1_000_000
            return (state.report.attempts, wantsCancel ? delay : nil)
        }
        do {
            let task = try start(
                { [self] response in finished(id, upload: upload, file: file, .success(response.value)) },
                { [self] error in finished(id, upload: upload, file: file, .failure(error)) })
            if let delay {
                // real wait: the random moment of the cancel is what the test varies; nothing waits on it.
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { task.cancel() }
            }
        } catch {
            state.withLock { $0.report.unexpected.append("attempt \(id) didn't start: \(error)") }
            ended(upload: upload, file: file)
        }
    }

    private func finished(_ id: Int, upload: Int, file: URL, _ result: Result<URL, NetworkError>) {
        let first = state.withLock { state in
            state.report.endings[id, default: 0] += 1
            return state.report.endings[id] == 1
        }
        guard first else { return }
        switch result {
        case .success(let url):
            let exact =
                (try? Data(contentsOf: serverFiles.appendingPathComponent(url.lastPathComponent)))
                == (try? Data(contentsOf: file))
            state.withLock { state in
                state.report.completed += 1
                if !exact { state.report.mismatched.append(upload) }
            }
            try? FileManager.default.removeItem(at: serverFiles.appendingPathComponent(url.lastPathComponent))
            ended(upload: upload, file: file)
        case .failure(let error):
            if case .cancelled = error {
                state.withLock { $0.report.cancelledEndings += 1 }
            } else {
                state.withLock { $0.report.unexpected.append("attempt \(id): \(error)") }
            }
            resume(upload: upload, file: file)
        }
    }

    private func resume(upload: Int, file: URL) {
        guard let transfer = store.unfinishedTransfers.first(where: { $0.file == file }) else {
            state.withLock { $0.report.unexpected.append("upload \(upload) is not stored") }
            return ended(upload: upload, file: file)
        }
        attempt(upload: upload, file: file) { success, failure in
            try self.store.resume(transfer, successHandler: success, errorHandler: failure)
        }
    }

    private func ended(upload: Int, file: URL?) {
        if let file { try? FileManager.default.removeItem(at: file) }
        state.withLock { $0.running -= 1 }
        startNextUpload()
    }

    private func endIfIdle() {
        let isLast = state.withLock { state in
            guard state.running == 0, !state.finished else { return false }
            state.finished = true
            return true
        }
        if isLast { whenDone?() }
    }

    /// xorshift64.
    private static func next(_ value: inout UInt64) -> UInt64 {
        value ^= value << 13
        value ^= value >> 7
        value ^= value << 17
        return value
    }
}
