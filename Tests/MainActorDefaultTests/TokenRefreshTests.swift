import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The app's sign-in state, main-actor like everything in this module.
final class SignInState {
    private(set) var renewals = 0

    func renew() -> String {
        renewals += 1
        return "fresh"
    }
}

/// `BearerTokenAuthenticator` from a MainActor-default module: its refresh is `@Sendable` and runs off
/// the main actor, so it reaches the main-actor state by hopping there (calling it directly does not
/// compile: `.ci/compile-fail-check`). Signing out from the main actor is a plain call.
final class TokenRefreshTests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    func testARefreshHopsToTheMainActorAndSignOutForgetsTheToken() async throws {
        let server = MockServer { request in
            MockResponse(status: request.header("Authorization") == "Bearer fresh" ? 204 : 401)
        }
        try server.start()
        defer { server.stop() }
        let state = SignInState()
        let authenticator = BearerTokenAuthenticator(accessToken: "stale") { completion in
            Task { @MainActor in completion(.success(state.renew())) }
        }
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 5, interceptors: [authenticator])

        _ = try await network.send(NetworkRequest<Data>(urlString: "me"))
        XCTAssertEqual(state.renewals, 1)
        XCTAssertEqual(authenticator.accessToken, "fresh")

        authenticator.setAccessToken(nil)
        XCTAssertNil(authenticator.accessToken)
        _ = try await network.send(NetworkRequest<Data>(urlString: "me"))
        XCTAssertEqual(state.renewals, 2, "signed out: the next request refreshed first")
        XCTAssertEqual(
            server.recordedRequests.map { $0.header("Authorization") },
            ["Bearer stale", "Bearer fresh", "Bearer fresh"])
    }
}
