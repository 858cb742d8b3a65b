import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// What reaches a real server when a header is malformed. Measured on Swift 6.3.1 before the layer
/// checked headers: a CR/LF in a name wrote the caller's text onto the wire as extra header lines (and
/// could smuggle a second request); a bare CR or LF in a value made libcurl drop the header, and the
/// request succeeded without it. Now such a request is refused and nothing is sent.
final class HeaderInjectionTests: XCTestCase {
    private func invalidHeaderName(_ error: NetworkError?) -> String? {
        if case .invalidHeader(let name)? = error { return name }
        return nil
    }

    func testLineBreaksInARequestHeaderNameSendNothing() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let names = [
            "X-A: 1\r\nX-Injected: yes\r\nX-B",
            "X-A: 1\r\nContent-Length: 0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\nX-B",
            "X-A\nX-Injected", "X-A\rX-Injected",
        ]
        for name in names {
            let result = outcome(of: Echo.self) { recorder in
                network.get(
                    urlString: "start", headers: [name: "1"], successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }
            XCTAssertEqual(invalidHeaderName(result?.error), name, String(describing: result))
        }
        XCTAssertEqual(server.requestCount, 0, server.recordedRequests.map(\.target).description)
    }

    func testLineBreakOrNULInAValueSendsNothingInsteadOfDroppingTheHeader() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        for value in ["Bearer token\n", "Bearer\rtoken", "Bearer token\r\nX-Injected: yes", "Bearer\0token"] {
            let result = outcome(of: Echo.self) { recorder in
                network.get(
                    urlString: "start", headers: ["Authorization": value], successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }
            XCTAssertEqual(invalidHeaderName(result?.error), "Authorization", String(describing: result))
        }
        XCTAssertEqual(server.requestCount, 0, server.recordedRequests.map(\.headers).description)
    }

    func testAnInvalidDefaultHeaderFailsEveryRequestAndSendsNothing() throws {
        let server = try MockServer.echoing(in: self)
        let name = "X-Client: app\r\nX-Injected"
        let network = NetworkLayer(
            baseURL: server.baseURL, defaultHeaders: ["Authorization": "Bearer t", name: "yes"],
            sessionConfiguration: .ephemeral, encoder: TestData.encoder())
        for _ in 0..<3 {
            let result = outcome(of: Void.self) { recorder in
                network.post(
                    urlString: "items", body: ["a": 1], successHandler: recorder.done,
                    errorHandler: recorder.failure)
            }
            XCTAssertEqual(invalidHeaderName(result?.error), name, String(describing: result))
        }
        XCTAssertEqual(server.requestCount, 0)
    }

    func testOddButLegalHeadersArriveIntact() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(
            baseURL: server.baseURL, defaultHeaders: ["X-Default_1": "ü\tv"], sessionConfiguration: .ephemeral
        )
        let headers = ["X-A_b.c~": "tab\tand ünïcödé ✓", "!#$%&'*+-.^_`|~09azAZ": "1"]

        let result = outcome(of: Echo.self) { recorder in
            network.get(
                urlString: "start", headers: headers, successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(echo.headers["x-a_b.c~"], "tab\tand ünïcödé ✓")
        XCTAssertEqual(echo.headers["!#$%&'*+-.^_`|~09azaz"], "1")
        XCTAssertEqual(echo.headers["x-default_1"], "ü\tv")
    }
}
