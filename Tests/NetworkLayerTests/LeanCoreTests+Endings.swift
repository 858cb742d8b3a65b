import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a transfer leaves behind when it ends in an unusual order: a head arriving after its stop, a disk
/// that fails halfway through a download.
extension LeanCoreTests {
    private func download(_ network: NetworkLayer, to destination: URL) -> Result<URL, NetworkError>? {
        outcome(of: URL.self, timeout: 20) { recorder in
            network.send(
                .download(urlString: "file", to: destination), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
    }

    /// While another reply holds libcurl back, a stop ends a transfer at once and its task's cancel lands
    /// later; a head libcurl read meanwhile still reaches the transfer, and must take nothing it would
    /// never give back.
    func testAHeadArrivingAfterAStopTakesNoBackPressureHold() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(text: "late").delayed(beforeHeaders: 2))
        let transport = SessionTransport(configuration: .ephemeral)
        addTeardownBlock { transport.session.invalidateAndCancel() }
        let queue = transport.delegateQueue
        queue.holdBackPressure()  // another transfer's long reply is arriving
        var request = URLRequest(url: server.baseURL.appendingPathComponent("slow"))
        request.timeoutInterval = 30
        let finished = expectation(description: "finished")
        let transfer = Transfer(
            request, sink: MemorySink(limit: 1 << 20, method: "GET"), body: nil,
            redirectPolicy: .default, transport: transport,
            clock: SystemClock()
        ) { result in
            XCTAssertEqual((result.error as? URLError)?.code, .cancelled)
            finished.fulfill()
        }
        transfer.start()
        transfer.stopFromAnyThread(because: nil)
        wait(for: [finished], timeout: 5)

        // The head of a reply of unknown length, which would need back-pressure, as FoundationNetworking
        // hands it over after the stop.
        let url = try XCTUnwrap(request.url)
        let handled = expectation(description: "late head handled")
        queue.enqueue {
            let head = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Transfer-Encoding": "chunked"])
            XCTAssertEqual(head.map(transfer.receive), false, "a stopped transfer accepted a reply")
            handled.fulfill()
        }
        wait(for: [handled], timeout: 5)
        queue.releaseBackPressure()
        XCTAssertFalse(queue.isHoldingBack, "a finished transfer kept a back-pressure hold")
    }

    /// FoundationNetworking's own timeout is an idle timeout too: it must stay behind a stream's idle
    /// timeout when that is the longer one, or it cuts a quiet stream short.
    func testFoundationNetworkingsTimeoutStaysBehindAStreamsLongerIdleTimeout() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://api.example.com/feed")))
        request.timeoutInterval = 1
        XCTAssertEqual(SessionTransport.withBackstopTimeout(request).timeoutInterval, 32)
        XCTAssertEqual(
            SessionTransport.withBackstopTimeout(request, bodyIdleTimeout: 60).timeoutInterval, 150)
        XCTAssertEqual(
            SessionTransport.withBackstopTimeout(request, bodyIdleTimeout: 0.5).timeoutInterval, 32)
    }

    /// A write that fails (a full disk) ends the download; the pieces already handed to the disk after it
    /// must not land behind the gap, or the partial file a resume continues would have a hole in it.
    func testPiecesAfterAFailedWriteAreNotWritten() throws {
        let server = try startedServer()
        let data = Data((0..<(2 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ ($0 >> 10)) })
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("TransferEndingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")

        // A slow disk, so that pieces queue up behind the one that fails.
        let disk = TestDisk()
        disk.delay.withLock { $0 = 0.2 }
        disk.failedWrites.withLock { $0 = 1 }
        network.transport.disk = disk
        server.enqueue(MockResponse(headers: ["ETag": "\"v1\""], body: data).supportingRanges())
        let first = download(network, to: destination)
        XCTAssertNotNil(first?.error, "the failed write didn't fail the download")
        let partial = URL(fileURLWithPath: destination.path + ".partial")
        if let kept = try? Data(contentsOf: partial) {
            XCTAssertEqual(kept, data.prefix(kept.count), "the kept partial file is not a prefix of the file")
        }

        disk.delay.withLock { $0 = 0 }
        server.enqueue(MockResponse(headers: ["ETag": "\"v1\""], body: data).supportingRanges())
        let second = download(network, to: destination)
        XCTAssertEqual(second?.value, destination)
        XCTAssertEqual(try Data(contentsOf: destination), data, "the downloaded file differs")
    }
}
