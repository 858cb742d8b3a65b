import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A redirect to another origin (here another port of 127.0.0.1) takes none of the caller's headers
/// along: they were meant for the server the caller addressed. Only `Accept` goes.
final class CrossOriginRedirectTests: XCTestCase {
    /// Headers FoundationNetworking and libcurl add to every request, whoever the caller is.
    private let transportHeaders: Set<String> = [
        "host", "user-agent", "accept-encoding", "accept-language", "connection",
    ]

    func testAnotherOriginSeesNoCallerHeaderButAccept() throws {
        for status in [301, 302, 303, 307, 308] {
            let target = try MockServer.echoing(in: self)
            let origin = try MockServer.redirecting(with: status, to: target, in: self)
            let network = NetworkLayer(
                baseURL: origin.baseURL,
                defaultHeaders: ["Authorization": "Bearer secret", "X-Api-Key": "key", "X-Client": "app"],
                sessionConfiguration: .ephemeral)

            let result = outcome(of: Echo.self) { recorder in
                network.get(
                    urlString: "start",
                    headers: ["X-Custom": "mine", "Cookie": "session=1", "Proxy-Authorization": "Basic p"],
                    successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let echo = try XCTUnwrap(result?.value, "\(status): \(String(describing: result))")
            XCTAssertEqual(echo.target, "/elsewhere", "\(status)")
            XCTAssertEqual(Set(echo.headers.keys).subtracting(transportHeaders), ["accept"], "\(status)")
            XCTAssertEqual(echo.headers["accept"], "application/json", "\(status)")
            let first = try XCTUnwrap(origin.takeRequest(timeout: 1))
            XCTAssertEqual(first.header("X-Api-Key"), "key", "the origin itself gets every header")
        }
    }

    func testALayerThatOptsInForwardsItsHeadersButNoCredentials() throws {
        let target = try MockServer.echoing(in: self)
        let origin = try MockServer.redirecting(with: 302, to: target, in: self)
        let network = NetworkLayer(
            baseURL: origin.baseURL,
            defaultHeaders: [
                "Authorization": "Bearer secret", "X-Api-Key": "key", "X-Auth-Token": "t", "X-Client": "app",
            ],
            redirectPolicy: RedirectPolicy(forwardsHeadersAcrossOrigins: true))
        let result = outcome(of: Echo.self) { recorder in
            network.get(
                urlString: "start", headers: ["X-Custom": "mine", "Cookie": "session=1"],
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let echo = try XCTUnwrap(result?.value, "\(String(describing: result))")
        XCTAssertEqual(echo.headers["x-client"], "app")
        XCTAssertEqual(echo.headers["x-custom"], "mine")
        XCTAssertNil(echo.headers["x-api-key"])
        XCTAssertNil(echo.headers["x-auth-token"])
        XCTAssertNil(echo.headers["authorization"])
        XCTAssertNil(echo.headers["cookie"])
    }

    /// A request with a redirect policy of its own keeps the layer's credential names: they are the one
    /// list's, not the layer's policy's alone.
    func testARequestsOwnPolicyStillWithholdsTheLayersCredentialNames() throws {
        let target = try MockServer.echoing(in: self)
        let origin = try MockServer.redirecting(with: 302, to: target, in: self)
        let network = NetworkLayer(
            baseURL: origin.baseURL, defaultHeaders: ["X-Layer-Secret": "layer", "X-Client": "app"],
            redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Layer-Secret"]))
        var request = NetworkRequest<Echo>(
            urlString: "start", headers: ["X-Own-Secret": "own", "X-Custom": "mine"])
        request.redirectPolicy = RedirectPolicy(
            forwardsHeadersAcrossOrigins: true, credentialHeaders: ["X-Own-Secret"])

        let result = outcome(of: Echo.self) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(echo.headers["x-client"], "app")
        XCTAssertEqual(echo.headers["x-custom"], "mine")
        XCTAssertNil(echo.headers["x-layer-secret"], "the layer's credential name")
        XCTAssertNil(echo.headers["x-own-secret"], "the request's own credential name")
        XCTAssertEqual(try XCTUnwrap(origin.takeRequest(timeout: 1)).header("X-Layer-Secret"), "layer")
    }

    func testTheSameOriginStillGetsEveryHeader() throws {
        let server = try MockServer.echoing(in: self)
        server.enqueue(MockResponse(status: 302, headers: ["Location": "/elsewhere"]))
        let network = NetworkLayer(
            baseURL: server.baseURL, defaultHeaders: ["Authorization": "Bearer secret", "X-Api-Key": "key"],
            sessionConfiguration: .ephemeral)

        let result = outcome(of: Echo.self) { recorder in
            network.get(urlString: "start", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(echo.headers["authorization"], "Bearer secret")
        XCTAssertEqual(echo.headers["x-api-key"], "key")
    }
}
