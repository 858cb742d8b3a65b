import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Regressions for two redirect defects the end-to-end suite found: a 307/308 POST lost its body, and
/// credentials followed a redirect to another origin. The layer's session delegate now handles both.
final class RedirectSafetyTests: XCTestCase {
    private struct Item: Codable, Equatable {
        var id: Int
        var name: String
    }

    /// FoundationNetworking follows 307/308 with the method but sends `Content-Length: 0`: the JSON body
    /// is lost, and the target may answer 2xx to an empty POST.
    func test307And308ResendTheBodyOrFail() throws {
        for status in [307, 308] {
            let server = try MockServer.echoing(in: self)
            server.enqueue(MockResponse(status: status, headers: ["Location": "/target"]))
            let network = NetworkLayer(
                baseURL: server.baseURL, sessionConfiguration: .ephemeral, encoder: TestData.encoder())
            let item = Item(id: 1, name: "body")

            let result = outcome(of: Echo.self) { recorder in
                network.post(
                    urlString: "start", body: item, successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }

            switch result {
            case .success(let echo)?:
                XCTAssertEqual(echo.method, "POST", "\(status)")
                XCTAssertEqual(
                    echo.bodyChecksum, Checksum.of(try TestData.encoder().encode(item)),
                    "\(status): the body must reach the redirect target")
            case .failure(let error)?:
                XCTAssertEqual(error.statusCode, status, "declining the redirect is acceptable too")
            case nil:
                XCTFail("no outcome")
            }
        }
    }

    /// A redirect to another origin (here another port of 127.0.0.1; measured the same for
    /// `localhost`) receives the caller's `Authorization` and `Cookie` headers.
    func testAuthorizationIsNotForwardedToAnotherOrigin() throws {
        let target = try MockServer.echoing(in: self)
        let origin = try MockServer.redirecting(with: 302, to: target, in: self)
        let network = NetworkLayer(
            baseURL: origin.baseURL,
            defaultHeaders: ["Authorization": "Bearer secret", "Cookie": "session=1"],
            sessionConfiguration: .ephemeral)

        let result = outcome(of: Echo.self) { recorder in
            network.get(urlString: "start", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value)
        XCTAssertEqual(echo.target, "/elsewhere")
        XCTAssertNil(echo.headers["authorization"], "the token went to another origin")
        XCTAssertNil(echo.headers["cookie"], "the cookie went to another origin")
    }
}
