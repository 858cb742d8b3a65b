import Foundation
import NetworkLayer
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The authenticator's hooks called directly, with a refresh the test completes by hand.
final class BearerTokenAuthenticatorTests: XCTestCase {
    /// A refresh whose completions the test keeps and calls when it likes.
    private final class ManualRefresh: @unchecked Sendable {
        private let lock = NSLock()
        private var completions: [(Result<String, NetworkError>) -> Void] = []

        var calls: Int { lock.withLock { completions.count } }

        func start(_ completion: @escaping (Result<String, NetworkError>) -> Void) {
            lock.withLock { completions.append(completion) }
        }

        func complete(call index: Int, with result: Result<String, NetworkError>) {
            let completion = lock.withLock { index < completions.count ? completions[index] : nil }
            guard let completion else { return XCTFail("refresh \(index + 1) was never called") }
            completion(result)
        }
    }

    /// What a hook answered, kept for the test to read.
    private final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value] = []
        var all: [Value] { lock.withLock { values } }
        func add(_ value: Value) { lock.withLock { values.append(value) } }
    }

    private let request = URLRequest(url: URL(string: "https://api.example.com/items")!)

    private func adapted(by authenticator: BearerTokenAuthenticator) -> Box<Result<URLRequest, NetworkError>>
    {
        let box = Box<Result<URLRequest, NetworkError>>()
        authenticator.adapt(request) { box.add($0) }
        return box
    }

    private func failed(withToken token: String?, status: Int = 401, earlier: [NetworkError] = [])
        -> FailedAttempt
    {
        var sent = request
        if let token { sent.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return FailedAttempt(
            request: sent, error: .unacceptableStatusCode(status, body: Data(), headers: [:]),
            number: earlier.count + 1, earlierErrors: earlier)
    }

    private func decision(of authenticator: BearerTokenAuthenticator, on attempt: FailedAttempt)
        -> Box<RetryDecision>
    {
        let box = Box<RetryDecision>()
        authenticator.retry(attempt) { box.add($0) }
        return box
    }

    func testAddsTheTokenWithoutRefreshing() throws {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "abc", refresh: refresh.start)
        let result = try XCTUnwrap(adapted(by: authenticator).all.first)
        XCTAssertEqual(try result.get().value(forHTTPHeaderField: "Authorization"), "Bearer abc")
        XCTAssertEqual(refresh.calls, 0)
        XCTAssertEqual(authenticator.accessToken, "abc")
    }

    func testWithoutATokenTheFirstRequestRefreshesAndOthersWait() throws {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: refresh.start)
        let first = adapted(by: authenticator)
        let second = adapted(by: authenticator)
        XCTAssertEqual(refresh.calls, 1, "one refresh for both")
        XCTAssertTrue(first.all.isEmpty)
        XCTAssertTrue(second.all.isEmpty)
        refresh.complete(call: 0, with: .success("fresh"))
        for box in [first, second] {
            let request = try XCTUnwrap(box.all.first).get()
            XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer fresh")
        }
        XCTAssertEqual(authenticator.accessToken, "fresh")
    }

    func testOnlyA401IsRetried() {
        let authenticator = BearerTokenAuthenticator(accessToken: "abc") { _ in XCTFail("no refresh") }
        for status in [400, 403, 404, 500, 503] {
            let box = decision(of: authenticator, on: failed(withToken: "abc", status: status))
            guard case .doNotRetry? = box.all.first else { return XCTFail("\(status): \(box.all)") }
        }
        let timeout = FailedAttempt(request: request, error: .timedOut, number: 1)
        guard case .doNotRetry? = decision(of: authenticator, on: timeout).all.first else {
            return XCTFail("a timeout is not the authenticator's business")
        }
    }

    func testA401RefreshesOnceAndReplays() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let decisions = (0..<5).map { _ in decision(of: authenticator, on: failed(withToken: "old")) }
        XCTAssertEqual(refresh.calls, 1)
        XCTAssertNil(authenticator.accessToken, "no token to send while the refresh runs")
        XCTAssertTrue(adapted(by: authenticator).all.isEmpty, "a new request waits for the refresh")
        refresh.complete(call: 0, with: .success("new"))
        for box in decisions {
            guard case .retry? = box.all.first, box.all.count == 1 else { return XCTFail("\(box.all)") }
        }
        XCTAssertEqual(authenticator.accessToken, "new")
    }

    func testA401OfAnOlderTokenReplaysWithoutRefreshing() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "new", refresh: refresh.start)
        guard case .retry? = decision(of: authenticator, on: failed(withToken: "old")).all.first else {
            return XCTFail("replayed with the current token")
        }
        XCTAssertEqual(refresh.calls, 0)
    }

    func testASecond401EndsTheRequest() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let earlier: [NetworkError] = [.unacceptableStatusCode(401, body: Data(), headers: [:])]
        guard
            case .doNotRetry? = decision(of: authenticator, on: failed(withToken: "old", earlier: earlier))
                .all
                .first
        else { return XCTFail("a replay's 401 is final") }
        XCTAssertEqual(refresh.calls, 0)
    }

    func testAFailedRefreshFailsEveryWaiterAndForgetsTheToken() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let retrying = decision(of: authenticator, on: failed(withToken: "old"))
        let adapting = adapted(by: authenticator)
        refresh.complete(call: 0, with: .failure("signed out"))
        guard case .fail(let error)? = retrying.all.first else { return XCTFail("\(retrying.all)") }
        XCTAssertEqual(error.message, "signed out")
        XCTAssertEqual(adapting.all.first?.error?.message, "signed out")
        XCTAssertNil(authenticator.accessToken)
        // The next request refreshes again instead of sending the dead token.
        let next = adapted(by: authenticator)
        XCTAssertEqual(refresh.calls, 2)
        refresh.complete(call: 1, with: .success("again"))
        XCTAssertEqual(try next.all.first?.get().value(forHTTPHeaderField: "Authorization"), "Bearer again")
    }

    func testALateSecondCallOfAnOldRefreshsCompletionIsIgnored() throws {
        // Regression: a refresh's completion called a second time, while a later refresh ran, ended that
        // later refresh with the stale result.
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: refresh.start)
        _ = adapted(by: authenticator)
        refresh.complete(call: 0, with: .success("first"))
        _ = decision(of: authenticator, on: failed(withToken: "first"))
        XCTAssertEqual(refresh.calls, 2)
        let waiting = adapted(by: authenticator)
        refresh.complete(call: 0, with: .success("stale"))
        XCTAssertTrue(waiting.all.isEmpty, "still waiting for the second refresh")
        XCTAssertNil(authenticator.accessToken)
        refresh.complete(call: 1, with: .success("second"))
        XCTAssertEqual(
            try XCTUnwrap(waiting.all.first).get().value(forHTTPHeaderField: "Authorization"), "Bearer second"
        )
        XCTAssertEqual(authenticator.accessToken, "second")
    }

    func testARequestArrivingAsARefreshEndsUsesItsTokenInsteadOfRefreshingAgain() {
        // Regression: adapt and retry looked at the token and joined a refresh under two separate locks;
        // a refresh ending in between made them start a second, needless refresh.
        for round in 0..<20_000 {
            let refresh = ManualRefresh()
            let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: refresh.start)
            _ = adapted(by: authenticator)
            let racing = Box<Result<URLRequest, NetworkError>>()
            let request = request
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    refresh.complete(call: 0, with: .success("fresh"))
                } else {
                    authenticator.adapt(request) { racing.add($0) }
                }
            }
            guard refresh.calls == 1 else {
                return XCTFail("round \(round): \(refresh.calls) refreshes for one expired token")
            }
            XCTAssertEqual(
                try racing.all.first?.get().value(forHTTPHeaderField: "Authorization"), "Bearer fresh")
        }
    }

    func testASynchronousRefreshCompletesInPlace() throws {
        // The dummy layer answers presenters synchronously; so must the authenticator when refresh does.
        let authenticator = BearerTokenAuthenticator(accessToken: "old") { $0(.success("new")) }
        let box = decision(of: authenticator, on: failed(withToken: "old"))
        guard case .retry? = box.all.first else { return XCTFail("decided before retry(_:) returned") }
        let request = try XCTUnwrap(adapted(by: authenticator).all.first).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer new")
    }
}
