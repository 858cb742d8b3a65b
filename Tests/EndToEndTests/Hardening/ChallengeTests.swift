import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A 401 or 407 with an authentication challenge: FoundationNetworking waits forever for a credential
/// unless someone answers, so the layer answers and delivers the reply itself.
final class ChallengeTests: XCTestCase {
    private func challenge(
        status: Int = 401, header: String = "WWW-Authenticate", _ values: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let server = try MockServer.started(in: self)
        var reply = MockResponse(status: status, text: "who are you?")
        for value in values { reply = reply.addingHeader(header, value) }
        server.enqueue(reply)
        // The layer's timeout is well past the wait: the reply must come from the challenge, not a timeout.
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 30)
        let started = Date()
        let result = outcome(of: [String].self, timeout: 5, file: file, line: line) { recorder in
            network.get(
                urlString: "private", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, file: file, line: line)
        let error = try XCTUnwrap(result?.error, "\(String(describing: result))", file: file, line: line)
        XCTAssertEqual(error.statusCode, status, "\(error)", file: file, line: line)
        XCTAssertNotNil(
            error.responseHeaders[header.lowercased()], "\(error.responseHeaders)", file: file, line: line)
        XCTAssertEqual(error.responseBody, Data("who are you?".utf8), file: file, line: line)
    }

    func testBasicChallengeEndsAs401WithTheChallengeHeader() throws {
        try challenge(["Basic realm=\"x\""])
    }

    func testDigestChallengeEndsAs401() throws {
        try challenge(["Digest realm=\"x\", nonce=\"abc\", qop=\"auth\""])
    }

    func testBearerChallengeEndsAs401() throws {
        try challenge(["Bearer realm=\"api\", error=\"invalid_token\""])
    }

    func testSeveralChallengesInOneFieldEndAs401() throws {
        try challenge(["Bearer realm=\"api\", Basic realm=\"x\""])
    }

    func testSeveralChallengeFieldsEndAs401() throws {
        try challenge(["Negotiate", "Basic realm=\"x\""])
    }

    func testProxyChallengeEndsAs407() throws {
        try challenge(status: 407, header: "Proxy-Authenticate", ["Basic realm=\"proxy\""])
    }

    func testTheLayerGoesOnAfterAChallenge() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"x\""]))
        server.enqueue(try .json(["after"]))
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 30)
        let first = outcome(of: [String].self, timeout: 5) { recorder in
            network.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(first?.error?.statusCode, 401)
        let second = outcome(of: [String].self, timeout: 5) { recorder in
            network.get(urlString: "b", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(second?.value, ["after"])
        XCTAssertEqual(server.requestCount, 2, "the challenge was not answered with a retry")
    }
}
