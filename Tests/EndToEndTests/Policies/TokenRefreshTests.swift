import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `BearerTokenAuthenticator` against a real server that accepts only `Bearer new`.
final class TokenRefreshTests: XCTestCase {
    private func layer(
        _ server: MockServer, _ interceptors: [any RequestInterceptor], timeout: TimeInterval = 5
    ) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout,
            interceptors: interceptors)
    }

    private func get(_ network: NetworkLayer, _ path: String, _ recorder: OutcomeRecorder<[String]>)
        -> NetworkTask
    {
        network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
    }

    func testTwentyConcurrent401sRefreshOnceAndAllSucceedWithTheNewToken() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        // The barrier sends all 20 with the old token before any 401 returns. The spy sits before the
        // authenticator: when it has seen 20 failed attempts, all 20 have joined the refresh. The refresh
        // is held open until then.
        let spy = SpyInterceptor()
        let refresh = CountingRefresh(before: { _ in spy.retries.wait(for: 20, timeout: 5) })
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(server, [spy, authenticator, Barrier(count: 20)])

        let results = outcomes(of: [String].self, count: 20) { index, recorder in
            get(network, "items/\(index)", recorder)
        }

        XCTAssertEqual(refresh.calls.value, 1, "one refresh for twenty 401s")
        XCTAssertEqual(results.count, 20)
        for (index, result) in results.enumerated() {
            XCTAssertEqual(result.value, ["/items/\(index)"], "\(result)")
        }
        XCTAssertEqual(authenticator.accessToken, "new")
        let requests = server.recordedRequests
        XCTAssertEqual(requests.count, 40, "each request twice")
        for index in 0..<20 {
            let sent = requests.filter { $0.path == "/items/\(index)" }.map { $0.header("Authorization") }
            XCTAssertEqual(sent, ["Bearer old", "Bearer new"], "request \(index)")
        }
    }

    func testAFailedRefreshFailsAllTwentyWithItsErrorClearsTheTokenAndTheNextRequestRefreshesAgain() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        let spy = SpyInterceptor()
        let refresh = CountingRefresh(
            before: { number in if number == 1 { spy.retries.wait(for: 20, timeout: 5) } },
            answer: { number in number == 1 ? .failure("Your session has ended") : .success("new") })
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(server, [spy, authenticator, Barrier(count: 20)])

        let results = outcomes(of: [String].self, count: 20) { index, recorder in
            get(network, "items/\(index)", recorder)
        }

        XCTAssertEqual(refresh.calls.value, 1)
        XCTAssertEqual(results.count, 20)
        for result in results {
            XCTAssertEqual(result.error?.message, "Your session has ended", "\(result)")
        }
        XCTAssertNil(authenticator.accessToken, "the dead token is forgotten")
        XCTAssertEqual(server.authorizations, Array(repeating: "Bearer old", count: 20), "nothing replayed")

        let next = outcome(of: [String].self) { get(network, "after", $0) }
        XCTAssertEqual(next?.value, ["/after"], "\(String(describing: next))")
        XCTAssertEqual(refresh.calls.value, 2, "the next request refreshed first")
        XCTAssertEqual(server.recordedRequests.last?.header("Authorization"), "Bearer new")
        XCTAssertEqual(server.requestCount, 21, "and was sent once, with the new token")
    }

    func testASecond401AfterTheReplayEndsWithThat401() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler(accepting: "never"))
        let refresh = CountingRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(server, [authenticator])

        let result = outcome(of: [String].self) { get(network, "items", $0) }

        XCTAssertEqual(result?.error?.statusCode, 401, "\(String(describing: result))")
        XCTAssertEqual(result?.error?.responseBody, Data("expired".utf8))
        XCTAssertEqual(refresh.calls.value, 1)
        XCTAssertEqual(server.authorizations, ["Bearer old", "Bearer new"])
        XCTAssertEqual(authenticator.accessToken, "new", "the token is kept: the server refused a request")
    }

    func testA401ForAnOlderTokenReplaysWithTheCurrentOneWithoutRefreshing() throws {
        // A is sent with the old token and answered slowly; meanwhile B's 401 refreshes the token. A's 401
        // then arrives for a token already replaced.
        let release = DispatchSemaphore(value: 0)
        let handler = TokenServer.handler { request in
            if request.path == "/slow", request.header("Authorization") == "Bearer old" {
                _ = release.wait(timeout: .now() + 5)
            }
        }
        let server = try MockServer.started(in: self, handler: handler)
        let refresh = CountingRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(server, [authenticator])
        QueueMark.mark(.main, as: "main")
        let slow = OutcomeRecorder<[String]>(expectation(description: "A answered"))
        _ = get(network, "slow", slow)
        slow.markReturned()
        XCTAssertEqual(server.takeRequest(timeout: 5)?.header("Authorization"), "Bearer old")

        let fast = outcome(of: [String].self) { get(network, "fast", $0) }
        XCTAssertEqual(fast?.value, ["/fast"], "\(String(describing: fast))")
        XCTAssertEqual(authenticator.accessToken, "new")
        release.signal()
        wait(for: [slow.expectation], timeout: 5)

        XCTAssertEqual(slow.results.count, 1)
        XCTAssertEqual(slow.results.first?.value, ["/slow"], "\(slow.results)")
        XCTAssertEqual(refresh.calls.value, 1, "no refresh for a token already replaced")
        let sent = server.recordedRequests.map { "\($0.path) \($0.header("Authorization") ?? "-")" }
        XCTAssertEqual(
            sent, ["/slow Bearer old", "/fast Bearer old", "/fast Bearer new", "/slow Bearer new"])
    }

    func testRequestsStartedDuringARefreshWaitForItInsteadOfSendingTheOldToken() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        let refreshRuns = expectation(description: "the refresh runs")
        let release = DispatchSemaphore(value: 0)
        let refresh = CountingRefresh(before: { _ in
            refreshRuns.fulfill()
            _ = release.wait(timeout: .now() + 5)
        })
        // The spy runs before the authenticator: once it has adapted 6 requests, the 5 started during the
        // refresh have reached the authenticator.
        let spy = SpyInterceptor()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(server, [spy, authenticator])
        QueueMark.mark(.main, as: "main")
        let first = OutcomeRecorder<[String]>(expectation(description: "first answered"))
        _ = get(network, "first", first)
        first.markReturned()
        wait(for: [refreshRuns], timeout: 5)

        let later = (0..<5).map { _ in OutcomeRecorder<[String]>(expectation(description: "later answered")) }
        for (index, recorder) in later.enumerated() {
            _ = get(network, "later/\(index)", recorder)
            recorder.markReturned()
        }
        let reachedTheAuthenticator = expectation(description: "all six adapted")
        DispatchQueue.global().async {
            if spy.adapts.wait(for: 6, timeout: 5) { reachedTheAuthenticator.fulfill() }
        }
        wait(for: [reachedTheAuthenticator], timeout: 5)
        XCTAssertEqual(server.requestCount, 1, "nothing sent while the refresh runs")
        release.signal()
        wait(for: [first.expectation] + later.map(\.expectation), timeout: 5)

        XCTAssertEqual(first.results.first?.value, ["/first"])
        for (index, recorder) in later.enumerated() {
            XCTAssertEqual(recorder.results.count, 1)
            XCTAssertEqual(recorder.results.first?.value, ["/later/\(index)"], "\(recorder.results)")
        }
        XCTAssertEqual(refresh.calls.value, 1)
        XCTAssertEqual(
            server.authorizations.filter { $0 == "Bearer old" }.count, 1, "only the first request's")
        XCTAssertEqual(server.requestCount, 7)
    }

    func testReplaysAreAdaptedOffTheMainQueueEvenWhenTheRefreshCompletesOnIt() throws {
        // Regression: a refresh completing on the main queue (as callback APIs often do) ran the replay's
        // adapt stage, and every interceptor after the authenticator, on the main queue.
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        let refreshCalls = Tally()
        let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
            refreshCalls.increment()
            let done = UncheckedBox(completion)
            DispatchQueue.main.async { done.value(.success("new")) }
        }
        let spy = SpyInterceptor()
        let network = layer(server, [authenticator, spy])

        let result = outcome(of: [String].self) { get(network, "items", $0) }

        XCTAssertEqual(result?.value, ["/items"], "\(String(describing: result))")
        XCTAssertEqual(refreshCalls.value, 1)
        XCTAssertEqual(spy.sentAuthorizations.all, ["Bearer old", "Bearer new"])
        XCTAssertEqual(spy.onMainThread.all, [false, false], "adapt, adapt: both off the main thread")
    }

    func testWithoutATokenTheFirstRequestRefreshesBeforeItIsSent() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        let refresh = CountingRefresh()
        let network = layer(server, [BearerTokenAuthenticator(accessToken: nil, refresh: refresh.refresh)])

        let result = outcome(of: [String].self) { get(network, "items", $0) }

        XCTAssertEqual(result?.value, ["/items"])
        XCTAssertEqual(refresh.calls.value, 1)
        XCTAssertEqual(server.authorizations, ["Bearer new"])
    }

    func testCancellingARequestThatWaitsForARefreshSendsNothing() throws {
        let server = try MockServer.started(in: self, handler: TokenServer.handler())
        let refreshRuns = expectation(description: "the refresh runs")
        let release = DispatchSemaphore(value: 0)
        let refresh = CountingRefresh(before: { _ in
            refreshRuns.fulfill()
            _ = release.wait(timeout: .now() + 5)
        })
        let network = layer(server, [BearerTokenAuthenticator(accessToken: nil, refresh: refresh.refresh)])
        let result = outcome(of: [String].self) { recorder in
            let task = get(network, "items", recorder)
            wait(for: [refreshRuns], timeout: 5)
            task.cancel()
            return task
        }
        XCTAssertEqual(result?.error?.isCancelled, true)
        release.signal()
        // The refresh finishes; the cancelled request must not go out with its token.
        let second = outcome(of: [String].self) { get(network, "next", $0) }
        XCTAssertEqual(second?.value, ["/next"])
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/next"])
    }
}
