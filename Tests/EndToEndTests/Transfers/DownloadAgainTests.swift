import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Issue 32, decision 3: cancel, then download again to the same destination, is accepted at once: the
/// new download waits for the cancelled one to give the destination up. Two live downloads to one
/// destination are still refused.
final class DownloadAgainTests: XCTestCase {
    @discardableResult
    private func start(
        _ network: NetworkLayer, to destination: URL, handled: XCTestExpectation,
        result: Locked<Result<URL, NetworkError>?>
    ) -> NetworkTask {
        network.send(
            .download(urlString: "file", to: destination),
            successHandler: { response in
                result.withLock { $0 = .success(response.value) }
                handled.fulfill()
            },
            errorHandler: { error in
                result.withLock { $0 = .failure(error) }
                handled.fulfill()
            })
    }

    func testADownloadStartedRightAfterACancelWaitsForTheDestination() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("file.bin")
        let data = TestData.bytes(300_000)
        server.enqueue(MockResponse(status: 200).withFault(.stall))
        server.enqueue(.file(data))
        let firstEnded = expectation(description: "the first download ended")
        let first = Locked<Result<URL, NetworkError>?>(nil)
        let firstTask = start(network, to: destination, handled: firstEnded, result: first)
        XCTAssertNotNil(server.takeRequest(), "the first download reached the server")

        firstTask.cancel()
        let secondEnded = expectation(description: "the second download ended")
        let second = Locked<Result<URL, NetworkError>?>(nil)
        start(network, to: destination, handled: secondEnded, result: second)
        // A third, while the second is alive, is two live downloads to one destination.
        let thirdEnded = expectation(description: "the third download was refused")
        let third = Locked<Result<URL, NetworkError>?>(nil)
        start(network, to: destination, handled: thirdEnded, result: third)

        wait(for: [firstEnded, secondEnded, thirdEnded], timeout: 10)
        XCTAssertEqual(first.withLock { $0?.error?.isCancelled }, true)
        XCTAssertEqual(second.withLock { $0?.value }, destination, "\(String(describing: second))")
        XCTAssertEqual(try Data(contentsOf: destination), data)
        XCTAssertEqual(third.withLock { $0?.error?.transportCode }, .cannotOpenFile)
        XCTAssertEqual(server.requestCount, 2, "the refused download sent nothing")
    }

    /// A download cancelled while it waits gives its turn up too: the next one waits behind both. (The
    /// order of turns is `DownloadClaimsTests`'; here the first download may have let the destination go
    /// before the second asks for it, so the second may go out before its cancel: every request after the
    /// first is answered.)
    func testADownloadCancelledWhileItWaitsLetsTheNextOneThrough() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("file.bin")
        let data = TestData.bytes(10_000)
        let requests = Locked(0)
        server.handler = { _ in
            let number = requests.withLock {
                $0 += 1
                return $0
            }
            return number == 1 ? MockResponse(status: 200).withFault(.stall) : .file(data)
        }
        let ended = (0..<3).map { expectation(description: "download \($0) ended") }
        let results = (0..<3).map { _ in Locked<Result<URL, NetworkError>?>(nil) }
        let first = start(network, to: destination, handled: ended[0], result: results[0])
        XCTAssertNotNil(server.takeRequest(), "the first download reached the server")

        first.cancel()
        start(network, to: destination, handled: ended[1], result: results[1]).cancel()
        start(network, to: destination, handled: ended[2], result: results[2])

        wait(for: ended, timeout: 10)
        XCTAssertEqual(results[0].withLock { $0?.error?.isCancelled }, true)
        XCTAssertEqual(results[1].withLock { $0?.error?.isCancelled }, true)
        XCTAssertEqual(results[2].withLock { $0?.value }, destination, "\(String(describing: results[2]))")
        XCTAssertEqual(try Data(contentsOf: destination), data)
        XCTAssertLessThanOrEqual(server.requestCount, 3)
    }

    /// Cancelled mid-body: the new download waits for the cancelled one's file to be closed, then
    /// resumes from what it kept.
    func testADownloadStartedRightAfterACancelMidBodyResumesWhatItKept() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("video.bin")
        let data = TestData.bytes(4 * 1_048_576)
        server.enqueue(MockResponse.file(data).throttled(bytes: 64 * 1024, every: 0.01))
        server.enqueue(.file(data))
        let arrived = expectation(description: "bytes arrived")
        arrived.assertForOverFulfill = false
        let firstEnded = expectation(description: "the first download ended")
        let first = Locked<Result<URL, NetworkError>?>(nil)
        var request = NetworkRequest.download(urlString: "file", to: destination)
        request.progressHandler = { if $0.completedBytes > 0 { arrived.fulfill() } }
        let firstTask = network.send(
            request,
            successHandler: { response in
                first.withLock { $0 = .success(response.value) }
                firstEnded.fulfill()
            },
            errorHandler: { error in
                first.withLock { $0 = .failure(error) }
                firstEnded.fulfill()
            })
        wait(for: [arrived], timeout: 10)

        firstTask.cancel()
        let secondEnded = expectation(description: "the second download ended")
        let second = Locked<Result<URL, NetworkError>?>(nil)
        start(network, to: destination, handled: secondEnded, result: second)

        wait(for: [firstEnded, secondEnded], timeout: 20)
        XCTAssertEqual(first.withLock { $0?.error?.isCancelled }, true)
        XCTAssertEqual(second.withLock { $0?.value }, destination, "\(String(describing: second))")
        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        let resumed = server.recordedRequests.last
        XCTAssertNotNil(resumed?.header("Range"), "the second download resumed the first one's bytes")
    }
}
