import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Tokens that live less than the refresh window (60 s by default): the window used for a token is at
/// most half its lifetime, so each token is used before it is refreshed, once per lifetime, on the test
/// clock.
final class ShortLivedTokenTests: XCTestCase {
    private let items = "https://api.example.com/items"
    private let origin = URL(string: "https://api.example.com")!

    /// Five requests, six seconds apart, on `network`: the whole lifetime of a 30-second token.
    private func sendFive(on network: DummyNetworkLayer, clock: TestClock) -> Captured<String> {
        let got = Captured<String>()
        for index in 0..<5 {
            if index > 0 { clock.advance(by: 6) }
            network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)
        }
        return got
    }

    func testThirtySecondTokensFromTheRefreshAreRefreshedOncePerLifetime() {
        let clock = TestClock()
        let refreshes = Locked(0)
        let authenticator = BearerTokenAuthenticator(
            token: .init("t0", expiresAt: clock.date + 30), origins: [origin]
        ) { completion in
            let number = refreshes.withLock { count in
                count += 1
                return count
            }
            completion(.success(.init("t\(number)", expiresAt: clock.date + 30)))
        }
        let network = DummyNetworkLayer(interceptors: [authenticator], clock: clock)
        network.stub(.get, items, returning: "ok")

        let got = sendFive(on: network, clock: clock)

        XCTAssertEqual(got.values, ["ok", "ok", "ok", "ok", "ok"])
        XCTAssertEqual(refreshes.withLock { $0 }, 1, "once in the lifetime, at its second half")
        XCTAssertEqual(
            network.recordedRequests.map { $0.headers["Authorization"] },
            ["Bearer t0", "Bearer t0", "Bearer t0", "Bearer t1", "Bearer t1"])
    }

    /// A dummy layer on `clock` with an authenticator signed in with a token that lives `lifetime`
    /// seconds; its refresh brings tokens without an expiry, and counts itself in `refreshes`.
    private func signedIn(
        for lifetime: TimeInterval, clock: TestClock, refreshes: Locked<Int>
    ) -> DummyNetworkLayer {
        let authenticator = BearerTokenAuthenticator(accessToken: nil, origins: [origin]) { completion in
            refreshes.withLock { $0 += 1 }
            completion(.success("refreshed"))
        }
        let network = DummyNetworkLayer(interceptors: [authenticator], clock: clock)
        network.stub(.get, items, returning: "ok")
        authenticator.setAccessToken("signed-in", expiresAt: clock.date + lifetime)
        return network
    }

    func testASignedInThirtySecondTokenIsUsedBeforeItIsRefreshed() {
        let clock = TestClock()
        let refreshes = Locked(0)
        let network = signedIn(for: 30, clock: clock, refreshes: refreshes)

        _ = sendFive(on: network, clock: clock)

        XCTAssertEqual(refreshes.withLock { $0 }, 1)
        XCTAssertEqual(
            network.recordedRequests.map { $0.headers["Authorization"] },
            [
                "Bearer signed-in", "Bearer signed-in", "Bearer signed-in", "Bearer refreshed",
                "Bearer refreshed",
            ])
    }

    func testAnHoursTokenKeepsTheConfiguredWindow() {
        let clock = TestClock()
        let refreshes = Locked(0)
        let network = signedIn(for: 3_600, clock: clock, refreshes: refreshes)
        let got = Captured<String>()

        clock.advance(by: 3_600 - 61)
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(refreshes.withLock { $0 }, 0, "61 s left: outside the 60 s window")
        clock.advance(by: 2)
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(refreshes.withLock { $0 }, 1, "59 s left: inside it")
    }
}
