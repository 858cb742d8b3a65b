import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// tus 1.0 uploads end to end on MockServer's tus handler: an interrupted upload resumes from the server's
/// offset and sends only the rest, byte-exact; a server without tus gets the caller's fallback or a clear
/// error; a cancel ends the upload once.
final class ResumableUploadTests: XCTestCase {
    private static let mebibyte = 1_048_576
    private static let size = 16 * mebibyte
    private static let resuming = RetryPolicy(maximumAttempts: 3, initialDelay: 0)

    private func tusServer() throws -> (MockServer, TusHandler) {
        let server = try MockServer.started(maxRequestBodySize: Self.size + Self.mebibyte, in: self)
        let tus = server.serveTus()
        addTeardownBlock { tus.removeStoredFiles() }
        return (server, tus)
    }

    private func source(seed: UInt64) throws -> (Data, URL) {
        let data = TestData.bytes(Self.size, seed: seed)
        return (data, try writeFile(data, named: "video.mp4", in: makeFolder()))
    }

    private func send(
        _ request: NetworkRequest<URL>, on network: NetworkLayer, log: TransferLog? = nil
    ) -> Result<URL, NetworkError>? {
        var request = request
        request.retryPolicy = Self.resuming
        request.progressHandler = log?.progress ?? { _ in }
        return outcome(of: URL.self, timeout: 60) { recorder in
            network.send(
                request,
                successHandler: { response in
                    log?.finish()
                    recorder.success(response.value)
                },
                errorHandler: { error in
                    log?.finish()
                    recorder.failure(error)
                })
        }
    }

    func testAnUploadCutAtHalfResumesFromTheServersOffsetAndSendsOnlyTheRest() throws {
        let (server, tus) = try tusServer()
        let (data, file) = try source(seed: 37)
        let half = Int64(Self.size / 2)
        tus.cutNextAppend(afterBytes: Int(half))
        let log = TransferLog()

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL),
            log: log)

        let uploaded = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(uploaded.path, "/tus-uploads/upload-000001")
        XCTAssertEqual(tus.appends.map(\.offset), [0, half], "resumed from the server's offset")
        let resent = tus.appends.dropFirst().reduce(0) { $0 + Int64($1.length) } - (Int64(Self.size) - half)
        XCTAssertLessThanOrEqual(resent, Int64(Self.mebibyte))
        let stored = try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first))
        XCTAssertTrue(stored == data, "the stored bytes differ from the source's")
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
        // After the cut, progress starts from what the server has: it never falls back below it (it falls
        // back at all only when the client had reported bytes still in flight at the cut).
        let counts = log.reports.map(\.completedBytes)
        let fallbacks = counts.indices.dropFirst().filter { counts[$0] < counts[$0 - 1] }.map { counts[$0] }
        XCTAssertTrue(fallbacks.allSatisfy { $0 >= half }, "\(fallbacks)")
        XCTAssertEqual(
            log.reports.last,
            TransferProgress(completedBytes: Int64(Self.size), expectedBytes: Int64(Self.size)))
    }

    func testAServerErrorIsFollowedByAskingTheOffsetAndAppendingAgain() throws {
        let (server, tus) = try tusServer()
        let (data, file) = try source(seed: 38)
        tus.failNextAppend(status: 503)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertNotNil(result?.value, String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
        XCTAssertTrue(
            try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)) == data,
            "the stored bytes differ from the source's")
    }

    func testAnUploadTheServerForgotStartsOver() throws {
        let (server, tus) = try tusServer()
        let (data, file) = try source(seed: 39)
        tus.cutNextAppend(afterBytes: Self.size / 2)
        let appending = tus.bodyHandler
        server.bodyHandler = { request in
            guard var receiver = appending(request) else { return nil }
            let finish = receiver.finish
            receiver.finish = { ending in
                defer { if ending == .cut { tus.forgetUploads() } }
                return finish(ending)
            }
            return receiver
        }

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/tus-uploads/upload-000002", String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "POST", "PATCH"])
        XCTAssertTrue(
            try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)) == data,
            "the stored bytes differ from the source's")
    }

    func testALostReplyToTheLastAppendEndsTheUploadOnceTheServerHasItAll() throws {
        let (server, tus) = try tusServer()
        let (data, file) = try source(seed: 49)
        tus.cutNextAppend(afterBytes: Self.size)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/tus-uploads/upload-000001", String(describing: result))
        XCTAssertEqual(
            server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD"], "nothing sent again")
        XCTAssertTrue(
            try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)) == data,
            "the stored bytes differ from the source's")
    }

    func testAnEmptyFileIsCompleteOnceCreated() throws {
        let (server, tus) = try tusServer()
        let file = try writeFile(Data(), named: "empty.bin", in: makeFolder())

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/tus-uploads/upload-000001", String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST"])
        XCTAssertEqual(tus.storedFiles.count, 1)
    }

    func testRetriesStopWhereThePolicySays() throws {
        let (server, tus) = try tusServer()
        let (_, file) = try source(seed: 40)
        for _ in 0..<3 { tus.failNextAppend(status: 503) }

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        guard case .unacceptableStatusCode(503, _, _)? = result?.error else {
            return XCTFail("expected the last 503, got \(String(describing: result))")
        }
        XCTAssertEqual(tus.appends.count, 3, "three attempts, as the policy allows")
    }

    func testANegativeOffsetFromTheServerFailsAsAnInvalidResponse() throws {
        let (server, tus) = try tusServer()
        let (_, file) = try source(seed: 41)
        let answer = tus.handler
        server.handler = { request in
            guard request.method == "HEAD" else { return try answer(request) }
            return MockResponse(
                status: 200, headers: ["Tus-Resumable": "1.0.0", "Upload-Offset": "-9223372036854775808"])
        }
        tus.failNextAppend(status: 503)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        guard case .invalidResponse? = result?.error else {
            return XCTFail("expected invalidResponse, got \(String(describing: result))")
        }
    }

    func testAServerWithoutTusFailsWithAnErrorThatSaysWhy() throws {
        let server = try MockServer.echoing(in: self)
        let (_, file) = try source(seed: 41)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        guard case .resumableUploadUnsupported("tus 1.0", let status)? = result?.error else {
            return XCTFail("expected resumableUploadUnsupported, got \(String(describing: result))")
        }
        XCTAssertEqual(status, 200, "the echoing server's answer to the creation request")
        XCTAssertTrue(result?.error?.message.contains("doesn't support tus 1.0") == true)
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST"])
        XCTAssertEqual(server.recordedRequests.first?.bodyLength, 0, "nothing of the file was sent")
    }

    func testAServerWithoutTusGetsAPlainUploadWhenTheCallerChoosesIt() throws {
        let server = try MockServer.started(maxRequestBodySize: Self.size + Self.mebibyte, in: self) {
            request in
            request.header("Tus-Resumable") == nil ? MockResponse(status: 201) : MockResponse(status: 405)
        }
        let (data, file) = try source(seed: 42)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .tus(fallback: .plainUpload)),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value, server.url("files"), String(describing: result))
        let plain = try XCTUnwrap(server.recordedRequests.last)
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "POST"])
        XCTAssertNil(plain.header("Tus-Resumable"))
        XCTAssertEqual(plain.header("Content-Type"), "video/mp4")
        XCTAssertTrue(plain.body == data, "the stored bytes differ from the source's")
    }

    func testACancelMidUploadEndsItExactlyOnce() throws {
        let (server, tus) = try tusServer()
        let (_, file) = try source(seed: 43)
        let network = NetworkLayer(baseURL: server.baseURL)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend)
        request.retryPolicy = Self.resuming
        let task = Locked<(any NetworkTask)?>(nil)
        request.progressHandler = { progress in
            if progress.completedBytes > 0 { task.withLock { $0 }?.cancel() }
        }

        let result = outcome(of: URL.self, timeout: 60) { recorder in
            let started = network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            task.withLock { $0 = started }
            return started
        }

        guard case .cancelled? = result?.error else {
            return XCTFail("expected cancelled, got \(String(describing: result))")
        }
        XCTAssertLessThan(tus.appends.count, 2, "no append after the cancel")
    }

    /// A request that delivers immediately still gets a resumable upload's outcome after its progress calls,
    /// as a plain upload's: a cancel from a progress call doesn't run the error handler inside that call.
    func testAnUploadDeliveringImmediatelyEndsAfterTheProgressCallThatCancelledIt() throws {
        let (server, _) = try tusServer()
        let (_, file) = try source(seed: 44)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend)
        request.deliversImmediately = true
        let task = Locked<(any NetworkTask)?>(nil)
        let inProgressCall = Locked(false)
        request.progressHandler = { progress in
            guard progress.completedBytes > 0 else { return }
            inProgressCall.withLock { $0 = true }
            task.withLock { $0 }?.cancel()
            inProgressCall.withLock { $0 = false }
        }
        let ended = expectation(description: "the upload ends")
        let endedInsideProgressCall = Locked<Bool?>(nil)

        let started = NetworkLayer(baseURL: server.baseURL).send(
            request, successHandler: { _ in XCTFail("cancelled") },
            errorHandler: { _ in
                endedInsideProgressCall.withLock { $0 = inProgressCall.withLock { $0 } }
                ended.fulfill()
            })
        task.withLock { $0 = started }
        wait(for: [ended], timeout: 60)

        XCTAssertEqual(endedInsideProgressCall.withLock { $0 }, false)
    }

    func testACancelWhileWaitingToResumeEndsItExactlyOnceAndNothingMoreIsSent() throws {
        let (ends, methods) = try endWhileWaitingToResume(seed: 47) { task, _ in task.cancel() }

        XCTAssertEqual(ends.count, 1)
        guard case .cancelled? = ends.first?.error else { return XCTFail("expected cancelled, got \(ends)") }
        XCTAssertEqual(methods, ["POST", "PATCH"], "no HEAD after the cancel")
    }

    /// The upload is one call: the request's `resourceTimeout` ends it, whatever step or wait it is in.
    func testTheRequestsTotalTimeLimitEndsAnUploadWaitingToResume() throws {
        let (ends, methods) = try endWhileWaitingToResume(seed: 50, resourceTimeout: 30) { _, clock in
            clock.advance(by: 30)
        }

        XCTAssertEqual(ends.count, 1)
        XCTAssertTrue(ends.first?.error?.isTimedOut == true, "expected timedOut, got \(ends)")
        XCTAssertEqual(methods, ["POST", "PATCH"], "no HEAD after the limit")
    }

    /// Uploads a file whose first append fails with a 503 asking for 60 s (`Retry-After`, so the wait is
    /// exactly that: the policy's own backoff has full jitter) on a layer that waits on a test clock to
    /// resume, and runs `end` during that wait.
    ///
    /// - Returns: Every outcome delivered, and the methods the server received.
    private func endWhileWaitingToResume(
        seed: UInt64, resourceTimeout: TimeInterval? = nil, end: (any NetworkTask, TestClock) -> Void
    ) throws -> (outcomes: [Result<URL, NetworkError>], methods: [String]) {
        let (server, tus) = try tusServer()
        let (_, file) = try source(seed: seed)
        let appending = tus.bodyHandler
        let failed = Locked(false)
        server.bodyHandler = { request in
            guard var receiver = appending(request) else { return nil }
            let finish = receiver.finish
            receiver.finish = { ending in
                let response = finish(ending)
                guard !failed.withLock({ $0 }) else { return response }
                failed.withLock { $0 = true }
                return MockResponse(status: 503, headers: ["Retry-After": "60", "Tus-Resumable": "1.0.0"])
            }
            return receiver
        }
        let clock = TestClock()
        // Not the main queue: this test waits for the clock on it.
        let queue = DispatchQueue(label: "resumable.callbacks")
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, callbackQueue: queue,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 60, maximumDelay: 60))
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend)
        request.resourceTimeout = resourceTimeout
        let ended = expectation(description: "the upload ends")
        let outcomes = Locked<[Result<URL, NetworkError>]>([])

        let task = network.send(
            request,
            successHandler: { response in
                outcomes.withLock { $0.append(.success(response.value)) }
                ended.fulfill()
            },
            errorHandler: { error in
                outcomes.withLock { $0.append(.failure(error)) }
                ended.fulfill()
            })
        XCTAssertTrue(clock.wait { $0.waits.count == 1 }, "the resume waits for the clock")
        end(task, clock)
        wait(for: [ended], timeout: 10)
        _ = clock.advanceUntilIdle()
        queue.sync {}
        return (outcomes.withLock { $0 }, server.recordedRequests.map(\.method))
    }

    func testTheAsyncFormResumesToo() async throws {
        let (server, tus) = try tusServer()
        let data = TestData.bytes(Self.mebibyte, seed: 48)
        let file = try writeFile(data, named: "small.bin", in: makeFolder())
        tus.cutNextAppend(afterBytes: Self.mebibyte / 4)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend)
        request.retryPolicy = Self.resuming

        let uploaded = try await NetworkLayer(baseURL: server.baseURL).send(request).value

        XCTAssertEqual(uploaded.path, "/tus-uploads/upload-000001")
        XCTAssertEqual(tus.appends.map(\.offset), [0, Int64(Self.mebibyte / 4)])
        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)), data)
    }

    func testMonitorsSeeEveryExchangeOfTheUpload() throws {
        let (server, tus) = try tusServer()
        let (_, file) = try source(seed: 44)
        tus.cutNextAppend(afterBytes: Self.mebibyte)
        let finished = expectation(description: "four exchanges finish")
        let monitor = MethodMonitor(finished, count: 4)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend)
        request.monitors = [monitor]

        XCTAssertNotNil(send(request, on: NetworkLayer(baseURL: server.baseURL))?.value)

        wait(for: [finished], timeout: 10)
        XCTAssertEqual(monitor.methods, [.post, .patch, .head, .patch])
    }

    func testATestDoubleTakesItAsThePlainUploadOfTheFile() throws {
        let (_, file) = try source(seed: 45)
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.post, "/files", returning: Data())
        let answered = expectation(description: "answered")
        let value = Locked<URL?>(nil)

        // A dummy answers where the reply is settled: here, inside `send`.
        network.send(
            .upload(urlString: "files", fileURL: file, resumable: .tusInOneAppend),
            successHandler: { response in
                value.withLock { $0 = response.value }
                answered.fulfill()
            },
            errorHandler: { error in XCTFail(error.message) })

        wait(for: [answered], timeout: 10)
        XCTAssertEqual(value.withLock { $0 }, URL(string: "https://api.example.com/files"))
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post])
        XCTAssertEqual(network.recordedRequests.last?.upload, .file(file))
    }
}

/// Records the method of each request that finished, and fulfills its expectation for each.
private final class MethodMonitor: NetworkMonitor {
    private let finished: XCTestExpectation
    private let recorded = Locked<[HTTPMethod]>([])

    init(_ finished: XCTestExpectation, count: Int) {
        finished.expectedFulfillmentCount = count
        self.finished = finished
    }

    var methods: [HTTPMethod] { recorded.withLock { $0 } }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        recorded.withLock { $0.append(request.method) }
        finished.fulfill()
    }
}
