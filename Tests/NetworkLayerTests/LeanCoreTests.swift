import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The lean core's promises that need its internals to observe: one timer per session, kept only while
/// transfers run; nothing of a request left behind once it has ended; no lock held while a progress
/// handler runs.
final class LeanCoreTests: XCTestCase {
    /// A port nothing listens on: a request to it fails at once with a refused connection.
    private func closedPort() throws -> URL {
        let server = MockServer()
        try server.start()
        let url = server.baseURL
        server.stop()
        return url
    }

    func startedServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// A download whose disk is far slower than the network shares its session with a request whose
    /// server never answers: that request's timeout fires on time, however far behind the disk is.
    func testASlowDiskHoldsUpNoOtherRequestsTimeout() throws {
        let server = try startedServer()
        server.handler = { request in
            guard request.path == "/silent" else {
                return MockResponse(
                    headers: ["Content-Type": "application/octet-stream"], body: Data(count: 16 << 20))
            }
            var reply = MockResponse(status: 200, text: "too late")
            reply.delayBeforeHeaders = 30
            return reply
        }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let disk = TestDisk()
        disk.delay.withLock { $0 = 0.5 }
        network.transport.disk = disk
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("LeanCoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }

        // The request waits for its reply first; then a download runs, and the disk falls far behind
        // before the request's timeout.
        let timeout: TimeInterval = 2
        let started = Date()
        let timedOut = expectation(description: "timed out")
        nonisolated(unsafe) var outcome: Result<Data, NetworkError>?
        nonisolated(unsafe) var elapsed: TimeInterval = 0
        network.send(
            NetworkRequest<Data>(urlString: "silent", timeout: timeout),
            successHandler: {
                outcome = .success($0.value)
                timedOut.fulfill()
            },
            errorHandler: {
                outcome = .failure($0)
                elapsed = Date().timeIntervalSince(started)
                timedOut.fulfill()
            })
        let behind = expectation(description: "3 MB handed to the disk")
        behind.assertForOverFulfill = false
        let downloadEnded = expectation(description: "download ended")
        var request = NetworkRequest.download(urlString: "big", to: folder.appendingPathComponent("big.bin"))
        request.progressHandler = { if $0.completedBytes > 3 << 20 { behind.fulfill() } }
        let download = network.send(
            request, successHandler: { _ in downloadEnded.fulfill() },
            errorHandler: { _ in downloadEnded.fulfill() })
        wait(for: [behind, timedOut], timeout: 20)

        guard case .failure(.timedOut) = outcome else { return XCTFail("\(String(describing: outcome))") }
        XCTAssertLessThan(elapsed, timeout + 0.8, "the \(timeout) s timeout fired after \(elapsed) s")
        // Stopped, the download writes what arrived before it ends: let the disk catch up.
        disk.delay.withLock { $0 = 0 }
        download.cancel()
        wait(for: [downloadEnded], timeout: 10)
    }

    func testAFastFailureReleasesItsDeadlineAtOnce() throws {
        let network = NetworkLayer(
            baseURL: try closedPort(), sessionConfiguration: .ephemeral, timeout: 60)
        let clock = try XCTUnwrap(network.clock as? SystemClock)
        for _ in 0..<20 {
            let result = outcome(of: Data.self) { recorder in
                network.get(
                    urlString: "nothing", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertNotNil(result?.error)
            // The transfer's deadline is dropped before its completion is handed on, so once the handler
            // has run no deadline of it is kept (the 60 s timeout would otherwise hold it a minute).
            XCTAssertEqual(clock.armedCount, 0, "deadlines kept after the request failed")
        }
    }

    /// The policy stage's waits share one clock too: an interceptor that answers releases its deadline at
    /// once, rather than leaving a timer per hook until the request's timeout.
    func testAnsweredInterceptorsKeepNoDeadline() throws {
        let header = SettingHeader(name: "X-Adapted", value: "1")
        let server = try startedServer()
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 60, interceptors: [header, header])
        // The layer's own clock: no other test's wait is kept there.
        let clock = try XCTUnwrap(network.clock as? SystemClock)
        let before = clock.armedCount
        for index in 0..<10 {
            server.enqueue(try .json([index]))
            let result = outcome(of: [Int].self) { recorder in
                network.get(urlString: "n", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value, [index])
        }
        XCTAssertEqual(
            clock.armedCount, before, "policy deadlines kept after their hooks answered")
    }

    func testAnIdleSessionHasNoTimerRunning() throws {
        let server = try startedServer()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 0.3)
        let clock = try XCTUnwrap(network.clock as? SystemClock)
        for index in 0..<5 {
            server.enqueue(try .json([index]))
            let result = outcome(of: [Int].self) { recorder in
                network.get(urlString: "n", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.value, [index])
        }
        XCTAssertEqual(clock.armedCount, 0)
        // The dispatch timer armed for the first request's deadline fires once, finds nothing due, and is
        // not armed again.
        let disarmed = expectation(for: NSPredicate { _, _ in !clock.isArmed }, evaluatedWith: nil)
        wait(for: [disarmed], timeout: 5)
    }

    func testFractionalTimeoutsFireOnTimeAmongLongerOnes() throws {
        let server = try startedServer()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 30)
        // A long request first arms the session's one timer for 30 s; the short one must move it sooner.
        server.enqueue(MockResponse(body: Data("late".utf8)).delayed(beforeHeaders: 3))
        server.enqueue(MockResponse(body: Data("late".utf8)).delayed(beforeHeaders: 3))
        let long = network.get(urlString: "long", successHandler: { (_: Data) in }, errorHandler: { _ in })
        defer { long.cancel() }
        let started = DispatchTime.now()
        let result = outcome(of: Data.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "short", timeout: 0.4),
                successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard case .timedOut? = result?.error else {
            return XCTFail("expected a timeout, got \(String(describing: result))")
        }
        XCTAssertGreaterThanOrEqual(elapsed, 0.39)
        XCTAssertLessThan(elapsed, 2.5, "the 0.4 s timeout waited for the 30 s one's timer")
    }

    /// A progress handler that re-enters the layer (cancels its own download), on a concurrent callback
    /// queue: no lock is held around the handler, so the cancel goes through, and the error handler runs
    /// once the progress handler has returned. (It once waited for the error handler instead; since
    /// issue 32, decision 1, no completion handler runs while a progress call of its transfer does.)
    func testAProgressHandlerThatReentersTheLayerDoesNotDeadlock() throws {
        let server = try startedServer()
        server.enqueue(
            MockResponse(body: Data(repeating: 0x5A, count: 4 << 20)).throttled(bytes: 64 * 1024, every: 0.01)
        )
        let queue = DispatchQueue(label: "concurrent-callbacks", attributes: .concurrent)
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let progressReturned = Locked(false)
        let outcome = Locked<(NetworkError, Bool)?>(nil)
        let task = Locked<NetworkTask?>(nil)
        let finished = expectation(description: "the error handler ran")
        let once = Locked(false)
        var request = NetworkRequest.download(urlString: "big", to: folder.appendingPathComponent("big.bin"))
        request.progressHandler = { _ in
            // On a concurrent queue the first progress call may come before `send` has returned the task:
            // the one cancel waits for a call that has it.
            guard let started = task.withLock({ $0 }),
                once.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            started.cancel()
            progressReturned.withLock { $0 = true }
        }
        let started = network.send(
            request,
            successHandler: { _ in finished.fulfill() },
            errorHandler: { error in
                outcome.withLock { $0 = (error, progressReturned.withLock { $0 }) }
                finished.fulfill()
            })
        task.withLock { $0 = started }
        wait(for: [finished], timeout: 15)
        XCTAssertEqual(
            outcome.withLock { $0?.0.isCancelled }, true, "the progress handler's cancel went through")
        XCTAssertEqual(outcome.withLock { $0?.1 }, true, "the error handler ran after the progress handler")
    }

    #if !canImport(FoundationNetworking)
        /// Apple platforms only (FoundationNetworking has no background configurations): data tasks and
        /// streamed uploads don't run in a background session, so a layer given one says so on every request.
        func testAppleABackgroundConfigurationIsRefusedWithAClearError() throws {
            let network = NetworkLayer(
                baseURL: URL(string: "http://127.0.0.1:9/"),
                sessionConfiguration: .background(withIdentifier: "com.example.refused"))
            let result = outcome(of: Data.self) { recorder in
                network.get(urlString: "x", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            guard case .invalidRequest(let reason)? = result?.error else {
                return XCTFail("expected invalidRequest, got \(String(describing: result))")
            }
            XCTAssertTrue(reason.contains("background"), reason)
        }
    #endif
}
