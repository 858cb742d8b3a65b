import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 1,000 resumable uploads over each protocol (16 KiB to 1 MiB, seeded contents), 8 at a time, each
/// cancelled from another thread at a random moment (just after it is sent, during its creation, during
/// an append, during a retry wait), then sent again until it completes (issue 37): every attempt's handler runs exactly once,
/// every completed upload is stored byte-exact, and nothing is left running in the layer.
final class ResumableUploadCancelStressTests: XCTestCase {
    private static let uploads = 1000
    private static let concurrency = 8
    private static let seed: UInt64 = 0x37_1000

    func testAThousandRandomCancelsAndResumesEndOnceAndCompleteByteExact() throws {
        try runAThousandUploads(resumable: .tus) { server in
            let tus = server.serveTus()
            return (tus.handler, tus.directory, tus.removeStoredFiles)
        }
    }

    func testAThousandRandomCancelsAndResumesOverTheIETFDraft() throws {
        try runAThousandUploads(resumable: .ietfDraft) { server in
            let draft = server.serveResumableUploads()
            return (draft.handler, draft.directory, draft.removeStoredFiles)
        }
    }

    private func runAThousandUploads(
        resumable: ResumableUpload,
        serve: (MockServer) -> (MockServer.Handler, URL, @Sendable () -> Void)
    ) throws {
        let server = try MockServer.started(maxRequestBodySize: 2 * 1_048_576, in: self)
        let (answer, directory, removeStoredFiles) = serve(server)
        addTeardownBlock { removeStoredFiles() }
        let book = try StressBook(
            plan: StressPlan(uploads: Self.uploads, seed: Self.seed), resumable: resumable,
            folder: try makeFolder())
        server.handler = book.serving(answer)
        // Appends go through the handler whole (small files), so the plan sees each one.
        server.bodyHandler = nil
        // The retry waits' `Retry-After` holds only the upload it answers, not every request to the server.
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "ResumableUploadCancelStress"),
            scheduling: RequestScheduling(waitsForRateLimits: false))
        let done = expectation(description: "every upload completed")
        book.run(on: network, storedIn: directory, concurrency: Self.concurrency) { done.fulfill() }

        wait(for: [done], timeout: 60)
        let report = book.report
        XCTAssertEqual(report.completed, Self.uploads)
        XCTAssertEqual(book.unended, [], "attempts without an ending")
        XCTAssertEqual(report.endings.filter { $0.value != 1 }.count, 0, "attempts not ended once")
        XCTAssertEqual(report.mismatched, [], "stored files that differ from their source")
        XCTAssertEqual(report.unexpected, [], "endings other than success or cancelled")
        XCTAssertGreaterThanOrEqual(report.cancels, Self.uploads)
        for moment in CancelMoment.allCases where moment != .never {
            XCTAssertGreaterThan(report.cancelledAt[moment] ?? 0, 0, "no upload cancelled \(moment)")
        }
        XCTAssertGreaterThan(report.cancelledWaiting, 0, "no upload cancelled in a retry wait")
        // A cancelled upload answers its caller at once and then stops its step, whose own ending comes
        // when URLSession reports the cancel (later under load), so the layer's registry drains just after
        // the last upload completes: waited for, bounded, rather than read at that instant.
        let drained = XCTNSPredicateExpectation(
            predicate: NSPredicate { _, _ in network.runningRequests.count == 0 && network.scheduledCount == 0
            },
            object: nil)
        wait(for: [drained], timeout: 10)
    }

    /// A step's reply delivered after the upload was cancelled (its handler waited on the callback queue)
    /// must not begin the next step: the creation's success used to send the first append.
    func testACreationAnsweredBeforeTheCancelButDeliveredAfterItSendsNoAppend() throws {
        let server = try MockServer.started(in: self)
        let tus = server.serveTus()
        addTeardownBlock { tus.removeStoredFiles() }
        let file = try writeFile(TestData.bytes(65_536, seed: 7), named: "small.bin", in: makeFolder())
        let created = expectation(description: "the creation answered")
        let appended = expectation(description: "an append began")
        appended.isInverted = true
        let monitor = StepMonitor(
            created: { created.fulfill() },
            finished: { method in
                if method == .patch { appended.fulfill() }
            })
        let callbacks = DispatchQueue(label: "ResumableUploadCancelStress.held")
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: callbacks, monitors: [monitor])
        let ended = expectation(description: "the upload ended")
        let outcome = Locked<Result<URL, NetworkError>?>(nil)
        // Held: the creation's success waits here until the upload is cancelled.
        callbacks.suspend()
        let task = network.send(
            NetworkRequest.upload(urlString: "files", fileURL: file, resumable: .tus),
            successHandler: { response in
                outcome.withLock { $0 = .success(response.value) }
                ended.fulfill()
            },
            errorHandler: { error in
                outcome.withLock { $0 = .failure(error) }
                ended.fulfill()
            })
        wait(for: [created], timeout: 10)
        task.cancel()
        callbacks.resume()

        wait(for: [ended], timeout: 10)
        guard case .failure(.cancelled)? = outcome.withLock({ $0 }) else {
            return XCTFail("\(String(describing: outcome.withLock { $0 }))")
        }
        wait(for: [appended], timeout: 1)
        XCTAssertEqual(tus.appends, [])
    }
}

/// When an attempt is cancelled.
private enum CancelMoment: CaseIterable {
    /// From another thread as soon as `send` has returned.
    case atOnce
    /// When the server receives its creation request.
    case creation
    /// When the server receives its first append.
    case append
    /// Just after the server failed its first append with a `Retry-After` of a second.
    case retryWait
    /// After a random wait of up to 30 ms.
    case random
    /// Never: the attempt runs to its end.
    case never
}

/// The seeded plan: sixteen source files of 16 KiB to 1 MiB (log-uniform), which one each upload
/// sends, and the moment each of its attempts is cancelled (the first always; later ones sometimes;
/// the fourth never).
private struct StressPlan {
    let sizes: [Int]
    let sources: [Int]
    let moments: [[CancelMoment]]
    /// The wait of a `.random` moment, per upload: up to 30 ms.
    let delays: [TimeInterval]

    init(uploads: Int, seed: UInt64) {
        var random = SplitMix(seed: seed)
        sizes = (0..<16).map { _ in Int(16_384 * pow(64, Double.random(in: 0...1, using: &random))) }
        sources = (0..<uploads).map { _ in Int.random(in: 0..<16, using: &random) }
        let cancelling = CancelMoment.allCases.filter { $0 != .never }
        moments = (0..<uploads).map { _ in
            [cancelling.randomElement(using: &random) ?? .atOnce]
                + (1..<3).map { _ in
                    Bool.random(using: &random) ? .never : cancelling.randomElement(using: &random) ?? .never
                }
                + [.never]
        }
        delays = (0..<uploads).map { _ in Double.random(in: 0...0.03, using: &random) }
    }

    func moment(upload: Int, attempt: Int) -> CancelMoment {
        moments[upload][min(attempt, moments[upload].count - 1)]
    }
}

/// A seeded generator (SplitMix64), so the plan is the same in every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What the stress test saw.
private struct StressReport {
    /// How often each attempt's handlers ran, by attempt.
    var endings: [Int: Int] = [:]
    var completed = 0
    /// Cancels made, and attempts that ended cancelled (the others had ended first).
    var cancels = 0
    var cancelledEndings = 0
    /// Attempts that ended cancelled, by their planned moment.
    var cancelledAt: [CancelMoment: Int] = [:]
    /// Cancelled in a retry wait: after a failed append, before the server was asked for its offset.
    var cancelledWaiting = 0

    var mismatched: [Int] = []
    var unexpected: [String] = []
}

/// Runs the plan: sends each upload, cancels its attempts at their moments (the server's side triggers
/// the cancels tied to an exchange), sends again until it completes, and keeps the report.
/// `@unchecked Sendable`: its mutable parts are in `state`, but for what `run` sets before the first send.
private final class StressBook: @unchecked Sendable {
    private struct Attempt {
        var task: (any NetworkTask)?
        var wantsCancel = false
        var appends = 0
        var heads = 0

    }

    private struct State {
        var attempts: [Int: Attempt] = [:]
        var report = StressReport()
        var next = 0
        var running = 0
        var finished = false
    }

    private let plan: StressPlan
    private let resumable: ResumableUpload
    private let files: [URL]
    private let contents: [Data]
    private let state = Locked(State())
    // Set once by `run`, before the first upload is sent.
    private var network: NetworkLayer?
    private var directory: URL?
    private var whenDone: (@Sendable () -> Void)?

    init(plan: StressPlan, resumable: ResumableUpload, folder: URL) throws {
        self.plan = plan
        self.resumable = resumable
        contents = plan.sizes.enumerated().map { TestData.bytes($1, seed: 37 + UInt64($0)) }
        files = try contents.enumerated().map { index, data in
            let file = folder.appendingPathComponent("source-\(index).bin")
            try data.write(to: file)
            return file
        }
    }

    var report: StressReport { state.withLock { $0.report } }

    /// The attempts sent whose handlers have not run, with their planned moment.
    var unended: [String] {
        state.withLock { state in
            state.attempts.keys.filter { state.report.endings[$0] == nil }.sorted().map { id in
                "\(id) (\(plan.moment(upload: id / 1000, attempt: id % 1000)))"
            }
        }
    }

    func run(
        on network: NetworkLayer, storedIn directory: URL, concurrency: Int,
        whenDone: @escaping @Sendable () -> Void
    ) {
        self.network = network
        self.directory = directory
        self.whenDone = whenDone
        for _ in 0..<concurrency { startNextUpload() }
    }

    /// The upload server's `answer`, with the faults and cancels the plan ties to an exchange.
    func serving(_ answer: @escaping MockServer.Handler) -> MockServer.Handler {
        return { [self] request in
            guard let id = request.header("X-Stress-Attempt").flatMap(Int.init) else {
                return try answer(request)
            }
            let moment = plan.moment(upload: id / 1000, attempt: id % 1000)
            note(request.method, of: id)
            switch (request.method, moment) {
            case ("POST", .creation):
                cancelSoon(id, after: 0)
            case ("PATCH", .append):
                cancelSoon(id, after: 0)
            case ("PATCH", .retryWait) where firstAppend(id):
                cancelSoon(id, after: 0.02)
                return MockResponse(status: 503, headers: ["Tus-Resumable": "1.0.0", "Retry-After": "1"])
            default:
                break
            }
            return try answer(request)
        }
    }

    private func note(_ method: String, of id: Int) {
        guard method == "HEAD" else { return }
        state.withLock { $0.attempts[id, default: Attempt()].heads += 1 }
    }

    private func firstAppend(_ id: Int) -> Bool {
        state.withLock { state in
            state.attempts[id, default: Attempt()].appends += 1
            return state.attempts[id]?.appends == 1
        }
    }

    private func startNextUpload() {
        let upload: Int? = state.withLock { state in
            guard state.next < plan.sources.count else { return nil }
            defer { state.next += 1 }
            state.running += 1
            return state.next
        }
        if let upload { send(upload, attempt: 0) }
    }

    private func send(_ upload: Int, attempt: Int) {
        guard let network else { return }
        let id = upload * 1000 + attempt
        var request = NetworkRequest.upload(
            urlString: "files", fileURL: files[plan.sources[upload]], resumable: resumable,
            headers: ["X-Stress-Attempt": String(id)])
        request.retryPolicy = RetryPolicy(maximumAttempts: 4, initialDelay: 0.01)
        let task = network.send(
            request,
            successHandler: { [self] response in ended(id, .success(response.value)) },
            errorHandler: { [self] error in ended(id, .failure(error)) })
        let cancelNow = state.withLock { state in
            state.attempts[id, default: Attempt()].task = task
            return state.attempts[id]?.wantsCancel == true
        }
        if cancelNow { task.cancel() }
        switch plan.moment(upload: upload, attempt: attempt) {
        case .atOnce: cancelSoon(id, after: 0)
        case .random: cancelSoon(id, after: plan.delays[upload])
        default: break
        }
    }

    /// Cancels attempt `id` from another thread, `delay` seconds from now; an attempt whose task isn't
    /// known yet is cancelled as soon as `send` has returned it.
    private func cancelSoon(_ id: Int, after delay: TimeInterval) {
        // real wait: the random moment of the cancel is what the test varies; nothing waits on it.
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            let task: (any NetworkTask)? = state.withLock { state in
                state.report.cancels += 1
                state.attempts[id, default: Attempt()].wantsCancel = true
                return state.attempts[id]?.task
            }
            task?.cancel()
        }
    }

    private func ended(_ id: Int, _ result: Result<URL, NetworkError>) {
        let first = state.withLock { state in
            state.report.endings[id, default: 0] += 1
            return state.report.endings[id] == 1
        }
        // A second ending is counted, and nothing more: the first one already decided what follows.
        guard first else { return }
        let upload = id / 1000
        switch result {
        case .success(let url):
            let exact = stored(url) == contents[plan.sources[upload]]
            let isLast = state.withLock { state in
                state.report.completed += 1
                if !exact { state.report.mismatched.append(upload) }
                state.running -= 1
                return state.next >= plan.sources.count && state.running == 0
            }
            if isLast { whenDone?() } else { startNextUpload() }
        case .failure(.cancelled):
            let moment = plan.moment(upload: upload, attempt: id % 1000)
            state.withLock { state in
                state.report.cancelledEndings += 1
                state.report.cancelledAt[moment, default: 0] += 1
                let attempt = state.attempts[id]
                if moment == .retryWait, attempt?.appends == 1, attempt?.heads == 0 {
                    state.report.cancelledWaiting += 1
                }
            }
            send(upload, attempt: id % 1000 + 1)
        case .failure(let error):
            state.withLock { $0.report.unexpected.append("\(id): \(error)") }
            send(upload, attempt: id % 1000 + 1)
        }
    }

    /// The server's copy of the upload at `url`, deleted once read so the disk holds only what is running.
    private func stored(_ url: URL) -> Data? {
        guard let directory else { return nil }
        let file = directory.appendingPathComponent(url.lastPathComponent)
        defer { try? FileManager.default.removeItem(at: file) }
        return try? Data(contentsOf: file)
    }
}

/// Tells when a creation's reply has arrived (before its handler, which waits on the callback queue),
/// and the method of each request the layer finishes (each step of an upload).
private final class StepMonitor: NetworkMonitor {
    private let created: @Sendable () -> Void
    private let finished: @Sendable (HTTPMethod) -> Void

    init(created: @escaping @Sendable () -> Void, finished: @escaping @Sendable (HTTPMethod) -> Void) {
        self.created = created
        self.finished = finished
    }

    func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        if response.statusCode == 201 { created() }
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        finished(request.method)
    }
}
