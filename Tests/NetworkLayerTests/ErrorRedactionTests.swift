import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An error's `message` and `description` end up on screens and in logs: neither may repeat a URL's
/// password or the values of its query and fragment parameters.
final class ErrorRedactionTests: PipelineTestCase {
    private let secrets = ["secret", "abc", "xyz", "s3cr3t"]

    private func assertRedacted(
        _ error: NetworkError, keeping kept: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        for text in [error.message, error.description, error.localizedDescription] {
            for secret in secrets {
                XCTAssertFalse(text.contains(secret), "\(text) repeats \(secret)", file: file, line: line)
            }
            for part in kept {
                XCTAssertTrue(text.contains(part), "\(text) lost \(part)", file: file, line: line)
            }
        }
    }

    func testInvalidURLTextsHideCredentialsAndParameterValuesButKeepTheirNames() {
        let error = NetworkError.invalidURL("https://user:secret@host/?token=abc")
        assertRedacted(error, keeping: ["https://<redacted>@host/?token=<redacted>"])
        XCTAssertEqual(error.description, #"invalidURL("https://<redacted>@host/?token=<redacted>")"#)
        XCTAssertEqual(
            error.message,
            #"The address "https://<redacted>@host/?token=<redacted>" is not a valid web address."#)
        guard case .invalidURL(let raw) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(raw, "https://user:secret@host/?token=abc", "the payload stays what the caller passed")
    }

    func testUnparsableAndSchemelessStringsAreRedactedToo() {
        let cases = [
            "https://user:secret@host/p?token=abc&page=2#access_token=xyz&state=s3cr3t":
                "https://<redacted>@host/p?token=<redacted>&page=<redacted>#access_token=<redacted>&state=<redacted>",
            "https://us er:sec ret@ho st/?to ken=a bc": "https://<redacted>@ho st/?to ken=<redacted>",
            "ftp://secret@example.com/x?token=abc": "ftp://<redacted>@example.com/x?token=<redacted>",
            "user:secret@example.com/x?token=abc": "<redacted>@example.com/x?token=<redacted>",
            "//user:secret@host/?token=abc": "//<redacted>@host/?token=<redacted>",
            "/callback#/reset?token=abc": "/callback#/reset?token=<redacted>",
        ]
        for (raw, redacted) in cases {
            let error = NetworkError.invalidURL(raw)
            assertRedacted(error, keeping: [redacted])
        }
    }

    func testARefusedRequestReportsTheURLRedacted() {
        for raw in [
            "ftp://user:secret@example.com/?token=abc", "https://user:secret@exa mple.com/?token=abc",
        ] {
            let error = outcome(of: EmptyJSON.self) {
                network.get(urlString: raw, successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard let error, case .invalidURL(let reported) = error else {
                XCTFail("\(raw) gave \(String(describing: error))")
                continue
            }
            XCTAssertEqual(reported, raw)
            assertRedacted(error, keeping: ["<redacted>@", "token=<redacted>"])
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
    }

    /// A transport error's text may name the URL that failed; the test double's does.
    func testTransportDescriptionRedactsAURLInTheUnderlyingText() throws {
        let network = stubs.makeNetworkLayer()
        let error = try XCTUnwrap(
            outcome(of: EmptyJSON.self) {
                network.get(
                    urlString: "https://user:secret@api.example.com/me?token=abc", successHandler: $0.success,
                    errorHandler: $0.failure)
            }?.error)
        XCTAssertEqual(error.transportCode, .unsupportedURL, "\(error)")
        assertRedacted(error)
        XCTAssertTrue(error.description.contains("api.example.com/me?token=<redacted>"), error.description)

        let described = NetworkError.transport(
            URLError(
                .cannotConnectToHost,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "Could not connect to \"http://u:secret@h:1/?key=abc\" (refused)"
                ]))
        assertRedacted(described)
        XCTAssertTrue(
            described.description.hasSuffix(
                #": Could not connect to "http://<redacted>@h:1/?key=<redacted>" (refused))"#),
            described.description)
    }

    func testEveryOtherCaseWithFreeTextRedactsURLsInIt() {
        let context = DecodingError.Context(codingPath: [], debugDescription: "at https://h/?token=abc")
        let errors: [NetworkError] = [
            .custom("Could not open https://user:secret@h/?token=abc"),
            .decodingFailed(DecodingError.dataCorrupted(context), body: Data()),
            .encodingFailed(
                EncodingError.invalidValue("x", .init(codingPath: [], debugDescription: "?token=abc"))),
        ]
        for error in errors {
            assertRedacted(error)
        }
        XCTAssertEqual(NetworkError.custom("Unable to parse response").message, "Unable to parse response")
        XCTAssertEqual(
            NetworkError.custom("Mail ann@example.com, or retry?").message, "Mail ann@example.com, or retry?")
    }
}
