import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A handler sees a 304 only when its own request was conditional: a caller's conditional request and
/// the cache's revalidation of the same resource, in flight at once, never share one reply.
final class UnsolicitedNotModifiedTests: CacheServerTestCase {
    func testAPlainRequestBesideACallersConditionalOneGetsTheStoredReply() {
        let held = DispatchSemaphore(value: 0)
        let holding = Shared(false)
        let arrived = expectation(description: "the conditional request reached the server")
        arrived.assertForOverFulfill = false
        server.handler = { request in
            if holding.value {
                arrived.fulfill()
                _ = held.wait(timeout: .now() + 10)
            }
            return MockResponse(text: "v1").cacheControl("no-cache").etag("\"v1\"").notModified(
                ifMatching: request)
        }
        _ = load()
        holding.value = true
        let conditional = expectation(description: "conditional answered")
        nonisolated(unsafe) var conditionalCode: Int?
        var ownRequest = NetworkRequest<Data>(urlString: "items", headers: ["If-None-Match": "\"v1\""])
        ownRequest.acceptableStatusCodes = [200, 304]
        network.send(
            ownRequest,
            successHandler: {
                conditionalCode = $0.statusCode
                conditional.fulfill()
            }, errorHandler: { _ in conditional.fulfill() })
        wait(for: [arrived], timeout: 10)
        holding.value = false
        let plain = expectation(description: "plain answered")
        nonisolated(unsafe) var plainResult: Result<NetworkResponse<Data>, NetworkError>?
        network.send(
            NetworkRequest<Data>(urlString: "items"),
            successHandler: {
                plainResult = .success($0)
                plain.fulfill()
            },
            errorHandler: {
                plainResult = .failure($0)
                plain.fulfill()
            })
        // A memory cache decides inside `send`: the plain request has joined the held send, or gone on its own.
        held.signal()
        wait(for: [conditional, plain], timeout: 10)
        XCTAssertEqual(conditionalCode, 304, "the caller asked for a 304")
        let response = try? plainResult?.get()
        XCTAssertEqual(
            response?.statusCode, 200, "a plain request saw a 304: \(String(describing: plainResult))")
        XCTAssertEqual(response.map { String(decoding: $0.data, as: UTF8.self) }, "v1")
    }
}
