import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// What the layer (URLSession on Linux underneath) does with redirects. These tests pin what was
/// measured on Swift 6.3.1 / FoundationNetworking / libcurl 7.88; a change of toolchain or of the
/// layer's redirect handling shows up here.
final class RedirectTests: XCTestCase {
    private struct Item: Codable, Equatable {
        var id: Int
        var name: String
    }

    private let item = Item(id: 3, name: "moved")

    /// The target answers with the request it saw; the origin redirects `/start` with `status`.
    private func redirectingServers(
        _ status: Int, crossOrigin: Bool = false
    ) throws -> (origin: MockServer, target: MockServer) {
        let target = try MockServer.echoing(in: self)
        let origin = crossOrigin ? try MockServer.started(in: self) : target
        let location = crossOrigin ? try XCTUnwrap(target.url("/target")).absoluteString : "/target"
        origin.enqueue(
            MockResponse(
                status: status, headers: ["Location": location, "X-Hop": "origin"],
                text: "moved to \(location)"))
        return (origin, target)
    }

    func testGetFollowsEveryRedirectStatus() throws {
        for status in [301, 302, 303, 307, 308] {
            let (server, _) = try redirectingServers(status)
            let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

            let result = outcome(of: Echo.self) { recorder in
                network.get(
                    urlString: "start", query: ["q": "1"], headers: ["X-Custom": "kept"],
                    successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let echo = try XCTUnwrap(result?.value, "\(status): \(String(describing: result))")
            XCTAssertEqual(echo.method, "GET", "\(status)")
            XCTAssertEqual(echo.target, "/target", "\(status): the Location replaces path and query")
            XCTAssertEqual(echo.headers["x-custom"], "kept", "\(status)")
            XCTAssertEqual(server.recordedRequests.map(\.target), ["/start?q=1", "/target"])
        }
    }

    /// A POST with a JSON body, redirected within the same origin and to another origin (another port
    /// of 127.0.0.1): the README's redirect table.
    ///
    /// | status | followed | method at target | body at target | caller's headers at another origin |
    /// |---|---|---|---|---|
    /// | 301, 302, 303 | yes | GET | none | removed (all but `Accept`) |
    /// | 307, 308 | no: `.unacceptableStatusCode` with `Location` | – | – | – |
    func testPostWithJSONBodyAcrossRedirects() throws {
        let headers = ["Authorization": "Bearer secret", "X-Custom": "kept", "Cookie": "session=1"]
        let body = try TestData.encoder().encode(item)
        for status in [301, 302, 303, 307, 308] {
            for crossOrigin in [false, true] {
                let context = "\(status)\(crossOrigin ? " to another origin" : "")"
                let (origin, target) = try redirectingServers(status, crossOrigin: crossOrigin)
                let network = NetworkLayer(
                    baseURL: origin.baseURL, sessionConfiguration: .ephemeral, encoder: TestData.encoder())

                let result = outcome(of: Echo.self) { recorder in
                    network.post(
                        urlString: "start", body: item, headers: headers, successHandler: recorder.success,
                        errorHandler: recorder.failure)
                }

                let first = try XCTUnwrap(origin.takeRequest(timeout: 1), context)
                XCTAssertEqual(first.method, "POST", context)
                XCTAssertEqual(first.body, body, context)
                if [307, 308].contains(status) {
                    #if canImport(FoundationNetworking)
                        // FoundationNetworking would re-send the POST with an empty body: not followed.
                        XCTAssertEqual(
                            result?.error?.statusCode, status, "\(context): \(String(describing: result))")
                        guard case .unacceptableStatusCode(_, _, let replyHeaders)? = result?.error else {
                            continue
                        }
                        XCTAssertEqual(
                            replyHeaders.first { $0.key.lowercased() == "location" }?.value.hasSuffix(
                                "/target"),
                            true,
                            context)
                        XCTAssertEqual(target.requestCount, crossOrigin ? 0 : 1, context)
                    #else
                        // Apple's URLSession sends the POST again with its body: followed.
                        let echo = try XCTUnwrap(result?.value, "\(context): \(String(describing: result))")
                        XCTAssertEqual(echo.method, "POST", context)
                        XCTAssertEqual(echo.bodyLength, body.count, context)
                    #endif
                    continue
                }
                let echo = try XCTUnwrap(result?.value, "\(context): \(String(describing: result))")
                XCTAssertEqual(echo.target, "/target", context)
                if crossOrigin {
                    XCTAssertNil(echo.headers["x-custom"], context)
                    XCTAssertNil(echo.headers["authorization"], context)
                    XCTAssertNil(echo.headers["cookie"], context)
                } else {
                    XCTAssertEqual(echo.headers["x-custom"], "kept", context)
                    XCTAssertEqual(echo.headers["authorization"], "Bearer secret", context)
                    XCTAssertEqual(echo.headers["cookie"], "session=1", context)
                }
                XCTAssertEqual(echo.headers["accept"], "application/json", context)
                XCTAssertEqual(echo.method, "GET", "\(context) turns POST into GET")
                XCTAssertEqual(echo.bodyLength, 0, context)
                XCTAssertNil(echo.headers["content-length"], context)
                XCTAssertEqual(target.requestCount, crossOrigin ? 1 : 2, context)
            }
        }
    }

    func testRedirectWithoutLocationIsAnUnacceptableStatus() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 302, headers: ["X-Hop": "origin"], text: "no location"))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let result = outcome(of: Item.self) { recorder in
            network.get(urlString: "start", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let error = try XCTUnwrap(result?.error)
        XCTAssertEqual(error.statusCode, 302)
        #if canImport(FoundationNetworking)
            XCTAssertEqual(
                error.responseBody, Data(),
                "measured: FoundationNetworking discards a 3xx body (here 11 bytes), even one it cannot follow"
            )
        #else
            XCTAssertEqual(error.responseBody, Data("no location".utf8))
        #endif
        XCTAssertEqual(error.responseHeaders["x-hop"], "origin")
    }

    func testRedirectLoopEndsAfterTwentyHopsAsTooManyRedirects() throws {
        let server = try MockServer.started(in: self) { request in
            MockResponse(status: 302, headers: ["Location": request.path == "/a" ? "/b" : "/a"])
        }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let result = outcome(of: Item.self) { recorder in
            network.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.error?.transportCode, .httpTooManyRedirects, String(describing: result))
        XCTAssertEqual(server.requestCount, 21, "the request and 20 redirects")
    }
}
