import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Measured on Swift 6.3.1: FoundationNetworking follows a 301 or 302 of a PUT or PATCH with the same
/// method, `Content-Length: 0` and the original `Content-Type`, and the target's 2xx made the call
/// succeed with its body lost (as for 307/308). Such a redirect is now not followed.
final class RedirectedBodyTests: XCTestCase {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    /// On Linux only: Apple's URLSession sends the body again, and the layer follows there.
    func testPutAndPatchWithABodyAreNotFollowedOn301Or302() throws {
        #if !canImport(FoundationNetworking)
            throw XCTSkip("Apple's URLSession sends a redirected body again: the redirect is followed")
        #else
            for method in [HTTPMethod.put, .patch] {
                for status in [301, 302] {
                    let context = "\(method.rawValue) \(status)"
                    let server = try MockServer.echoing(in: self)
                    server.enqueue(MockResponse(status: status, headers: ["Location": "/target"]))
                    let network = NetworkLayer(
                        baseURL: server.baseURL, sessionConfiguration: .ephemeral, encoder: TestData.encoder()
                    )

                    let result = outcome(of: Echo.self) { recorder in
                        method == .put
                            ? network.put(
                                urlString: "start", body: Item(id: 1), successHandler: recorder.success,
                                errorHandler: recorder.failure)
                            : network.patch(
                                urlString: "start", body: Item(id: 1), successHandler: recorder.success,
                                errorHandler: recorder.failure)
                    }

                    XCTAssertEqual(
                        result?.error?.statusCode, status, "\(context): \(String(describing: result))")
                    XCTAssertEqual(
                        result?.error?.responseHeaders["location"]?.hasSuffix("/target"), true, context)
                    XCTAssertEqual(server.recordedRequests.map(\.target), ["/start"], context)
                }
            }
        #endif
    }

    func testBodilessRequestsAreStillFollowedWithTheirMethod() throws {
        for status in [301, 302, 307, 308] {
            let server = try MockServer.echoing(in: self)
            server.enqueue(MockResponse(status: status, headers: ["Location": "/target"]))
            let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

            let result = outcome(of: Echo.self) { recorder in
                network.delete(
                    urlString: "start", successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let echo = try XCTUnwrap(result?.value, "\(status): \(String(describing: result))")
            XCTAssertEqual(echo.method, "DELETE", "\(status)")
            XCTAssertEqual(echo.target, "/target", "\(status)")
        }
    }
}
