import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Headers that would change what goes on the wire (extra header lines, a smuggled request, a header
/// silently dropped) are refused before anything is sent, with `.invalidHeader(name)`.
final class HeaderValidationTests: PipelineTestCase {
    /// Not RFC 9110 tokens: line breaks, a NUL, a space, a colon, a non-ASCII letter, nothing at all.
    private let invalidNames = [
        "X-A\r\nX-Injected", "X-A\nX-Injected", "X-A\rX-Injected",
        "X-A: 1\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: elsewhere\r\nX-B", "X-A\0", "Bad Name", "X:Y", "Näme",
        "",
    ]
    /// A bare CR or LF, CRLF, or a NUL.
    private let invalidValues = ["Bearer t\n", "Bearer\rt", "Bearer t\r\nX-Injected: 1", "Bearer\0t"]

    private func invalidHeaderName(_ error: NetworkError?) -> String? {
        if case .invalidHeader(let name)? = error { return name }
        return nil
    }

    func testRequestHeaderWithAnInvalidNameIsRefusedBeforeSending() {
        stubs.stub(nil, .any, with: .json(EmptyJSON()))
        for name in invalidNames {
            let error = outcome(of: EmptyJSON.self) {
                network.get(
                    urlString: "me", headers: [name: "1"], successHandler: $0.success,
                    errorHandler: $0.failure)
            }?.error
            XCTAssertEqual(
                invalidHeaderName(error), name, "\(name.debugDescription): \(String(describing: error))")
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty, "\(stubs.recordedRequests)")
    }

    func testRequestHeaderWithCROrLFOrNULInItsValueIsRefusedBeforeSending() {
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        for value in invalidValues {
            let error = outcome(of: Void.self) {
                network.post(
                    urlString: "items", body: ["a": 1], headers: ["Authorization": value],
                    successHandler: $0.done, errorHandler: $0.failure)
            }?.error
            XCTAssertEqual(
                invalidHeaderName(error), "Authorization",
                "\(value.debugDescription): \(String(describing: error))"
            )
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty, "\(stubs.recordedRequests)")
    }

    /// Default headers are checked once, when the layer is created; the layer is still created, and every
    /// request fails the same way, whatever its entry point and even when it overrides the bad header.
    func testInvalidDefaultHeaderFailsEveryRequestWithoutCrashing() {
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        let cases: [([String: String], String)] = [
            (["X-A\r\nX-Injected": "1"], "X-A\r\nX-Injected"),
            (["Authorization": "Bearer t\n"], "Authorization"),
            (["X-Fine": "1", "X-Null": "a\0b", "X-Later\n": "1"], "X-Later\n"),
        ]
        for (headers, name) in cases {
            let network = stubs.makeNetworkLayer(
                baseURL: URL(string: "https://api.example.com"), defaultHeaders: headers)
            let errors = [
                outcome(of: EmptyJSON.self) {
                    network.get(urlString: "me", successHandler: $0.success, errorHandler: $0.failure)
                }?.error,
                outcome(of: Void.self) {
                    network.delete(
                        urlString: "me", headers: [name: "valid"], successHandler: $0.done,
                        errorHandler: $0.failure)
                }?.error,
                outcome(of: Void.self) {
                    network.request(
                        TestEndpoint(path: "me", method: .put, body: .form(["a": "1"])),
                        successHandler: $0.done,
                        errorHandler: $0.failure)
                }?.error,
            ]
            XCTAssertEqual(errors.map(invalidHeaderName), [name, name, name], "\(headers)")
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty, "\(stubs.recordedRequests)")
    }

    func testDataBodyContentTypeWithALineBreakIsRefused() {
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        let error = outcome(of: Void.self) {
            network.request(
                TestEndpoint(
                    path: "upload", method: .post,
                    body: .data(Data("x".utf8), contentType: "text/plain\r\nX-A: 1")),
                successHandler: $0.done, errorHandler: $0.failure)
        }?.error
        XCTAssertEqual(invalidHeaderName(error), "Content-Type", String(describing: error))
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
    }

    func testOddButLegalHeadersStillGoOut() throws {
        stubs.stub(nil, .any, with: .json(EmptyJSON()))
        let headers = [
            "X-A_b.c~": "tab\tand ünïcödé ✓", "!#$%&'*+-.^_`|~09azAZ": "1", "X-Empty": "",
            "X-Controls": "\u{1}\u{7F}\u{85}",
        ]
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), defaultHeaders: ["X-Default_1": "ü\tv"])
        let result = outcome(of: EmptyJSON.self) {
            network.get(
                urlString: "me", headers: headers, successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(result?.value, EmptyJSON(), String(describing: result))
        let sent = try XCTUnwrap(stubs.recordedRequests.first)
        for (name, value) in headers {
            XCTAssertEqual(sent.header(name), value, name)
        }
        XCTAssertEqual(sent.header("X-Default_1"), "ü\tv")
    }

    func testInvalidHeaderTextsNameTheHeaderButNeverItsValue() throws {
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        let error = try XCTUnwrap(
            outcome(of: Void.self) {
                network.delete(
                    urlString: "me", headers: ["Authorization": "Bearer s3cret\n"], successHandler: $0.done,
                    errorHandler: $0.failure)
            }?.error)
        for text in [error.message, error.description, error.localizedDescription] {
            XCTAssertTrue(text.contains("Authorization"), text)
            XCTAssertFalse(text.contains("s3cret"), text)
        }
        XCTAssertEqual(error.description, #"invalidHeader("Authorization")"#)

        // A name that is itself an attack must not write lines into a log through the message.
        let injected = NetworkError.invalidHeader("X-A\r\nX-Injected: 1\u{85}\u{2028}\u{1B}[2J")
        for text in [injected.message, injected.description] {
            XCTAssertTrue(text.contains(#"X-A\r\nX-Injected: 1"#), text)
            for scalar in ["\r", "\n", "\u{85}", "\u{2028}", "\u{1B}"] as [Unicode.Scalar] {
                XCTAssertFalse(
                    text.unicodeScalars.contains(scalar),
                    "\(text.debugDescription) has \(scalar.escaped(asASCII: true))")
            }
        }
    }
}
