import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// What a monitor hears of a transfer (issue 50): a download's and an upload's progress as its handler
/// would, the end in `didFinish`, a resumable upload's confirmed offsets; and nothing kept for it when
/// no monitor listens. Through a real layer against a ``MockServer``.
final class TransferObservationTests: XCTestCase {
    private static let size = 3 * 65_536 + 1_000

    private func layer(_ server: MockServer, monitors: [any NetworkMonitor]) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "transfers.callbacks"),
            retryPolicy: .none, monitors: monitors)
    }

    /// Sends `request` and waits until its handler ran and the monitor heard it finish.
    private func run<Value>(
        _ request: NetworkRequest<Value>, on network: NetworkLayer, _ watcher: TransferWatcher
    ) {
        let (finished, handled) = (watcher.expectFinish(self), expectation(description: "handled"))
        network.send(
            request, successHandler: { _ in handled.fulfill() }, errorHandler: { _ in handled.fulfill() })
        wait(for: [finished, handled], timeout: 20)
    }

    func testADownloadTellsItsGrowingBytesAndTotalThenItsEnd() throws {
        let body = Data((0..<Self.size).map { UInt8(truncatingIfNeeded: $0) })
        let server = try startedServer { _ in MockResponse(body: body) }
        let watcher = TransferWatcher()
        let destination = try makeOutboxFolder().appendingPathComponent("file.bin")
        run(
            NetworkRequest<URL>.download(urlString: "file", to: destination),
            on: layer(server, monitors: [watcher]), watcher)

        let events = watcher.events
        guard case .finished(nil) = events.last else { return XCTFail("the end comes last: \(events)") }
        let written = watcher.written
        XCTAssertFalse(written.isEmpty, "a download without a progress handler is told all the same")
        XCTAssertEqual(written.map(\.completedBytes), written.map(\.completedBytes).sorted())
        XCTAssertEqual(Set(written.map(\.completedBytes)).count, written.count, "each call says more")
        XCTAssertEqual(
            written.last, TransferProgress(completedBytes: Int64(Self.size), expectedBytes: Int64(Self.size)))
        XCTAssertTrue(watcher.sent.isEmpty)
        XCTAssertEqual(watcher.requests, [watcher.finishedRequest], "every event is the download's")
    }

    func testAnUploadTellsItsBodySentAsItsHandlerIsTold() throws {
        let server = try startedServer { _ in MockResponse(status: 204) }
        let watcher = TransferWatcher()
        let handled = Locked<[TransferProgress]>([])
        var request = NetworkRequest<EmptyResponse>.upload(urlString: "files", data: Data(count: Self.size))
        request.progressHandler = { progress in handled.withLock { $0.append(progress) } }
        run(request, on: layer(server, monitors: [watcher]), watcher)

        let sent = watcher.sent
        XCTAssertEqual(
            sent.last, TransferProgress(completedBytes: Int64(Self.size), expectedBytes: Int64(Self.size)))
        XCTAssertEqual(sent.map(\.completedBytes), sent.map(\.completedBytes).sorted())
        XCTAssertLessThanOrEqual(sent.count, handled.withLock { $0.count }, "no more often than the handler")
        XCTAssertTrue(watcher.written.isEmpty)
    }

    func testAResumableUploadTellsEachOffsetTheServerConfirmed() throws {
        let server = try startedServer()
        let tus = server.serveTus()
        let file = try makeOutboxFolder().appendingPathComponent("photo.jpg")
        try Data(count: Self.size).write(to: file)
        var resumable = ResumableUpload.tus
        resumable.chunkSize = 65_536
        let watcher = TransferWatcher()
        let network = layer(server, monitors: [watcher])
        let done = expectation(description: "uploaded")
        network.send(
            NetworkRequest<URL>.upload(urlString: "files", fileURL: file, resumable: resumable),
            successHandler: { _ in done.fulfill() },
            errorHandler: {
                XCTFail("\($0)")
                done.fulfill()
            })
        wait(for: [done], timeout: 20)
        // The last confirmation is queued before the upload's handler runs.
        network.monitorsQueue.sync {}

        let confirmed = watcher.confirmed
        XCTAssertEqual(confirmed.map(\.offset), [0, 65_536, 131_072, 196_608, Int64(Self.size)])
        XCTAssertEqual(Set(confirmed.map(\.length)), [Int64(Self.size)])
        let patchURLs = Set(watcher.finishes.filter { $0.method == .patch }.compactMap(\.url))
        XCTAssertEqual(Set(confirmed.map(\.url)), patchURLs, "the URL every append went to")
        XCTAssertEqual(tus.appends.count, 4)
    }

    /// Without a monitor that observes attempts, a transfer without a progress handler counts nothing:
    /// no reporter, no lock, no timer. A progress handler, or a monitor that listens, gets one.
    func testWithoutAMonitorATransferKeepsNoCount() throws {
        let network = NetworkLayer()
        let download = NetworkRequest<URL>.download(
            urlString: "https://example.com/f", to: URL(fileURLWithPath: "/tmp/f"))
        XCTAssertNil(network.progressReporter(for: download, observer: nil))
        XCTAssertNil(network.progressReporter(for: NetworkRequest<Data>(urlString: "x"), observer: nil))

        let request = MonitoredRequest(method: .get, url: nil)
        let quiet = try XCTUnwrap(MonitorGroup([FinishOnly()])).channel()
        XCTAssertNil(
            network.progressReporter(for: download, observer: MonitoredCall(channel: quiet, request: request))
        )
        let listening = try XCTUnwrap(MonitorGroup([TransferWatcher()])).channel()
        XCTAssertNotNil(
            network.progressReporter(
                for: download, observer: MonitoredCall(channel: listening, request: request)))
        var withHandler = download
        withHandler.progressHandler = { _ in }
        XCTAssertNotNil(network.progressReporter(for: withHandler, observer: nil))
    }

    private struct FinishOnly: NetworkMonitor {
        var observesAttempts: Bool { false }
    }
}

/// Keeps each transfer event and each finish, in order. `@unchecked`: `lock` guards every stored property.
final class TransferWatcher: NetworkMonitor, @unchecked Sendable {
    enum Event {
        case sent(TransferProgress, MonitoredRequest)
        case written(TransferProgress, MonitoredRequest)
        case confirmed(offset: Int64, length: Int64, url: URL)
        /// The error, if it failed.
        case finished(NetworkError?)
    }

    private let lock = NSLock()
    private var stored: [Event] = []
    private var storedFinishes: [MonitoredRequest] = []
    private var waiting: [XCTestExpectation] = []

    var events: [Event] { lock.withLock { stored } }
    var finishes: [MonitoredRequest] { lock.withLock { storedFinishes } }
    var finishedRequest: MonitoredRequest? { finishes.last }

    var sent: [TransferProgress] {
        events.compactMap { if case .sent(let progress, _) = $0 { progress } else { nil } }
    }

    var written: [TransferProgress] {
        events.compactMap { if case .written(let progress, _) = $0 { progress } else { nil } }
    }

    var confirmed: [(offset: Int64, length: Int64, url: URL)] {
        events.compactMap {
            if case .confirmed(let offset, let length, let url) = $0 { (offset, length, url) } else { nil }
        }
    }

    /// The request of each progress event, once each.
    var requests: [MonitoredRequest?] {
        var seen: [MonitoredRequest] = []
        for event in events {
            switch event {
            case .sent(_, let request), .written(_, let request):
                if !seen.contains(request) { seen.append(request) }
            default: break
            }
        }
        return seen
    }

    /// Fulfilled once one more request finished.
    func expectFinish(_ test: XCTestCase) -> XCTestExpectation {
        let expectation = test.expectation(description: "a finish")
        lock.withLock { waiting.append(expectation) }
        return expectation
    }

    private func add(_ event: Event) {
        lock.withLock { stored.append(event) }
    }

    func didSendBodyData(_ progress: TransferProgress, for request: MonitoredRequest) {
        add(.sent(progress, request))
    }

    func didWriteData(_ progress: TransferProgress, for request: MonitoredRequest) {
        add(.written(progress, request))
    }

    func didConfirmUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL) {
        add(.confirmed(offset: offset, length: length, url: uploadURL))
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        var error: NetworkError?
        if case .failure(let failure) = result { error = failure }
        let told = lock.withLock {
            stored.append(.finished(error))
            storedFinishes.append(request)
            defer { waiting = [] }
            return waiting
        }
        for expectation in told { expectation.fulfill() }
    }
}
