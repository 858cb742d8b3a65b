import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call made of several requests (``ComposedCall``), driven on a dummy layer that holds its steps and a
/// test clock: its end (a cancel, the total time limit, the feature's own outcome) cancels the step in
/// flight or the wait, no step begins after it, and exactly one of the caller's handlers runs, once. Its
/// steps carry the caller's credentials only to the origin that created it.
final class ComposedCallTests: XCTestCase {
    private static let api = URL(string: "https://api.example.com")!

    /// What the caller's handler and the steps' handlers saw, in order.
    private final class Journal: Sendable {
        private let entries = Locked<[String]>([])

        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    private func makeCall(
        _ request: NetworkRequest<Data> = NetworkRequest(urlString: "start"), on network: NetworkLayer,
        journal: Journal
    ) -> ComposedCall {
        ComposedCall(request, on: network) { journal.note("call: \(Self.name($0))") }
    }

    private static func name(_ error: NetworkError) -> String {
        switch error {
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        default: error.message
        }
    }

    private static func sendStep(_ call: ComposedCall, _ path: String = "step", journal: Journal) {
        call.send(
            call.request(.get, path, headers: [:], as: Data.self),
            successHandler: { _ in journal.note("step succeeded") },
            errorHandler: { journal.note("step: \(Self.name($0))") })
    }

    func testACancelDuringAStepCancelsTheStepAndEndsTheCallOnce() {
        let network = DummyNetworkLayer(baseURL: Self.api)
        network.holdsReplies = true
        let journal = Journal()
        let call = makeCall(on: network, journal: journal)
        Self.sendStep(call, journal: journal)
        let held = network.pendingRequests
        XCTAssertEqual(held.count, 1)

        call.cancel()
        call.cancel()
        held.first?.succeed(with: Data())

        XCTAssertEqual(network.pendingRequests.count, 0, "the step in flight is cancelled")
        XCTAssertEqual(journal.all, ["call: cancelled"])
    }

    func testACancelDuringAWaitStopsItsTimerAndEndsTheCallOnce() {
        let clock = TestClock()
        let network = DummyNetworkLayer(baseURL: Self.api, clock: clock)
        let journal = Journal()
        let call = makeCall(on: network, journal: journal)
        call.wait(10) { journal.note("waited") }
        XCTAssertEqual(clock.waits, [10])
        XCTAssertEqual(clock.pendingDeadlines, [10, 300], "the wait and the call's total limit")

        call.cancel()
        clock.advance(by: 20)
        Queues.work.sync {}

        XCTAssertEqual(clock.pendingDeadlines, [], "the wait's timer is cancelled")
        XCTAssertEqual(journal.all, ["call: cancelled"])
    }

    func testTheTotalTimeLimitEndsACallDuringAWaitAsTimedOut() {
        let clock = TestClock()
        let network = DummyNetworkLayer(baseURL: Self.api, clock: clock)
        let journal = Journal()
        var request = NetworkRequest<Data>(urlString: "start")
        request.resourceTimeout = 5
        let call = makeCall(request, on: network, journal: journal)
        call.wait(60) { journal.note("waited") }

        clock.advance(by: 5)
        XCTAssertEqual(journal.all, ["call: timedOut"])
        clock.advance(by: 60)
        Queues.work.sync {}

        XCTAssertEqual(journal.all, ["call: timedOut"], "nothing follows the end")
        XCTAssertEqual(clock.pendingDeadlines, [])
    }

    func testAWaitEndsAndTheNextStepRunsWhenTheClockPassesIt() throws {
        let clock = TestClock()
        let network = DummyNetworkLayer(baseURL: Self.api, clock: clock)
        network.stub(.get, "/step", returning: Data())
        let journal = Journal()
        let call = makeCall(on: network, journal: journal)
        let waited = expectation(description: "the wait ended")
        call.wait(10) {
            Self.sendStep(call, journal: journal)
            waited.fulfill()
        }

        clock.advance(by: 10)
        wait(for: [waited], timeout: 5)
        call.succeed { journal.note("call succeeded") }

        XCTAssertEqual(journal.all, ["step succeeded", "call succeeded"])
    }

    func testNoStepBeginsAfterTheCallEnded() {
        let network = DummyNetworkLayer(baseURL: Self.api)
        let journal = Journal()
        let call = makeCall(on: network, journal: journal)
        call.fail(.invalidResponse)

        Self.sendStep(call, journal: journal)

        XCTAssertEqual(network.recordedRequests.count, 0)
        XCTAssertEqual(journal.all, ["call: \(NetworkError.invalidResponse.message)"])
    }

    /// The call ends while its step is being sent (here from the step's own interceptor, before `send`
    /// returns its task): the step is cancelled as soon as it is known, and its handlers don't run.
    func testAStepBegunAsTheCallEndsIsCancelledAtOnce() {
        let network = DummyNetworkLayer(baseURL: Self.api)
        network.holdsReplies = true
        let journal = Journal()
        let ending = Locked<ComposedCall?>(nil)
        var request = NetworkRequest<Data>(urlString: "start")
        request.interceptors = [EndingCall(call: ending)]
        let call = makeCall(request, on: network, journal: journal)
        ending.withLock { $0 = call }

        Self.sendStep(call, journal: journal)

        XCTAssertEqual(network.recordedRequests.count, 1, "the step was on its way")
        XCTAssertEqual(network.pendingRequests.count, 0, "and is cancelled")
        XCTAssertEqual(journal.all, ["call: cancelled"])
    }

    // MARK: - The origin rule on each step

    func testAStepToAnotherOriginCarriesNoneOfTheCallersCredentialsNorItsInterceptors() throws {
        let network = DummyNetworkLayer(baseURL: Self.api)
        var request = NetworkRequest<Data>(
            urlString: "start",
            headers: [
                "Authorization": "Bearer a", "Cookie": "c=1", "X-Api-Key": "k", "X-Session": "s",
                "X-Trace": "t",
            ])
        request.redirectPolicy = RedirectPolicy(credentialHeaders: ["x-session"])
        request.interceptors = [SettingHeader(name: "X-Signed", value: "yes")]
        let call = makeCall(request, on: network, journal: Journal())

        let home = try call.request(.head, "upload/1", headers: ["Tus-Resumable": "1.0.0"], as: Data.self)
            .get()
        let away = try call.request(
            .head, "https://uploads.example.com/u/1", headers: ["Tus-Resumable": "1.0.0", "Cookie": "step"],
            as: Data.self
        ).get()

        XCTAssertEqual(home.headers, request.headers.merging(["Tus-Resumable": "1.0.0"]) { $1 })
        XCTAssertEqual(home.interceptors.count, 1)
        // Not the caller's interceptors: the origin rule's filter alone, which runs after the layer's.
        XCTAssertEqual(away.interceptors.count, 1)
        var sent = URLRequest(url: try XCTUnwrap(URL(string: away.urlString)))
        for (name, value) in away.headers { sent.setValue(value, forHTTPHeaderField: name) }
        let filtered = Locked<URLRequest?>(nil)
        away.interceptors.first?.adapt(sent) { result in filtered.withLock { $0 = try? result.get() } }
        XCTAssertEqual(
            filtered.withLock { $0 }?.allHTTPHeaderFields, ["X-Trace": "t", "Tus-Resumable": "1.0.0"],
            "nothing on the credential list, whoever set it")
    }

    func testAStepToPlainHTTPAfterHTTPSIsRefusedAndEndsTheCall() {
        let network = DummyNetworkLayer(baseURL: Self.api)
        let journal = Journal()
        let call = makeCall(on: network, journal: journal)

        let step = call.request(.patch, "http://uploads.example.com/u/1", headers: [:], as: Data.self)
        call.send(step, successHandler: { _ in journal.note("step succeeded") }, errorHandler: { _ in })

        guard case .failure(.invalidRequest) = step else { return XCTFail("expected a refusal, got \(step)") }
        XCTAssertEqual(network.recordedRequests.count, 0)
        XCTAssertEqual(journal.all.count, 1)
    }
}

/// Ends the call its step belongs to from inside the step's `adapt`, then lets the step go on.
private struct EndingCall: RequestInterceptor {
    let call: Locked<ComposedCall?>

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        call.withLock { $0 }?.cancel()
        completion(.success(request))
    }
}
