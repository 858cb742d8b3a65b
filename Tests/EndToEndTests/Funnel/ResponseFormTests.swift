import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// `send`'s `NetworkResponse` for the request of every request method, and `send` with a `Result`, against
/// a real server: the value, the status, the headers by any case, the URL after redirects and the raw body.
final class ResponseFormTests: XCTestCase {
    private func layer(for server: MockServer) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.url("/v1"), sessionConfiguration: .ephemeral, encoder: TestData.encoder())
    }

    func testEveryRequestMethodsResponseFormCarriesValueStatusHeadersURLAndData() throws {
        let server = try MockServer.funnel(in: self)
        let network = layer(for: server)

        for entry in EntryPoint.allCases {
            let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
                network.start(
                    entry, "items/9", successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let response = try XCTUnwrap(result?.value, "\(entry): \(String(describing: result))")
            XCTAssertEqual(response.value.method, entry.method.rawValue, "\(entry)")
            XCTAssertEqual(response.statusCode, entry == .post ? 201 : 200, "\(entry)")
            for name in ["X-Total-Count", "x-total-count", "X-TOTAL-COUNT"] {
                XCTAssertEqual(response.headers[name], "42", "\(entry): \(name)")
            }
            for name in ["ETag", "etag", "ETAG"] {
                XCTAssertEqual(response.headers[name], "\"v2\"", "\(entry): \(name)")
            }
            XCTAssertEqual(response.headers["Content-Type"], "application/json", "\(entry)")
            XCTAssertNil(response.headers["X-Absent"], "\(entry)")
            let target = entry == .endpoint ? "/v1/items/9?view=full" : "/v1/items/9"
            XCTAssertEqual(response.value.target, target, "\(entry)")
            XCTAssertEqual(response.url, server.url(target), "\(entry)")
            XCTAssertEqual(
                try JSONDecoder().decode(Echo.self, from: response.data), response.value,
                "\(entry): data is the body the value was decoded from")
        }
        XCTAssertEqual(
            server.recordedRequests.map(\.method), ["GET", "POST", "PUT", "PATCH", "DELETE", "GET"])
    }

    func testDataIsTheRawBodyByteForByte() throws {
        // Odd spacing, key order and an escaped slash: any re-encoding would change the bytes.
        let body = "{ \"id\" : 7,\n  \"text\":\"a\\/b \\u00e9\" }\n"
        let server = try MockServer.started(in: self) { _ in
            MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let network = layer(for: server)

        for entry in EntryPoint.allCases {
            let result = outcome(of: NetworkResponse<Note>.self) { recorder in
                network.start(
                    entry, "notes/7", successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let response = try XCTUnwrap(result?.value, "\(entry): \(String(describing: result))")
            XCTAssertEqual(response.value, Note(id: 7, text: "a/b é"), "\(entry)")
            XCTAssertEqual(response.data, Data(body.utf8), "\(entry)")
            XCTAssertEqual(response.headers["content-length"], String(Data(body.utf8).count), "\(entry)")
        }
    }

    func testURLIsWhereTheReplyCameFromAfterA302() throws {
        let server = try MockServer.funnel(in: self)
        let network = layer(for: server)

        for entry in [EntryPoint.get, .delete] {
            let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
                network.start(
                    entry, "start", successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let response = try XCTUnwrap(result?.value, "\(entry): \(String(describing: result))")
            XCTAssertEqual(response.url, server.url("/v1/target"), "\(entry)")
            XCTAssertEqual(response.statusCode, 200, "\(entry): the final reply's status")
            XCTAssertEqual(response.value.target, "/v1/target", "\(entry)")
            XCTAssertEqual(response.headers["etag"], "\"v2\"", "\(entry): the final reply's headers")
        }
        XCTAssertEqual(
            server.recordedRequests.map { "\($0.method) \($0.target)" },
            ["GET /v1/start", "GET /v1/target", "DELETE /v1/start", "DELETE /v1/target"])
    }

    func testSendWithAResultCompletionSucceeds() throws {
        let server = try MockServer.funnel(in: self)
        let network = layer(for: server)
        let request = NetworkRequest<Echo>(
            method: .post, urlString: "notes", headers: ["X-Trace": "r1"], body: .json(Note(id: 2, text: "b"))
        )

        let result = outcome(of: Result<NetworkResponse<Echo>, NetworkError>.self) { recorder in
            network.send(request, completion: recorder.success)
        }

        let response = try XCTUnwrap(result?.value?.get(), String(describing: result))
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.value.method, "POST")
        XCTAssertEqual(response.value.target, "/v1/notes")
        XCTAssertEqual(response.value.headers["x-trace"], "r1")
        XCTAssertEqual(response.headers["x-total-count"], "42")
        XCTAssertEqual(response.url, server.url("/v1/notes"))
        XCTAssertEqual(
            try server.takeRequest(timeout: 1)?.decodedBody(as: Note.self), Note(id: 2, text: "b"))
    }

    func testSendWithAResultCompletionFails() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(try .json(["error": "gone"], status: 404, headers: ["X-Reason": "deleted"]))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], text: "[1,"))
        let network = layer(for: server)

        let missing = outcome(of: Result<NetworkResponse<Echo>, NetworkError>.self) { recorder in
            network.send(NetworkRequest(urlString: "notes/1"), completion: recorder.success)
        }
        let malformed = outcome(of: Result<NetworkResponse<[Int]>, NetworkError>.self) { recorder in
            network.send(NetworkRequest(urlString: "numbers"), completion: recorder.success)
        }
        let invalid = outcome(of: Result<NetworkResponse<[Int]>, NetworkError>.self) { recorder in
            network.send(NetworkRequest(urlString: "ftp://example.com/x"), completion: recorder.success)
        }

        let notFound = try XCTUnwrap(missing?.value?.error, String(describing: missing))
        XCTAssertEqual(notFound.statusCode, 404)
        XCTAssertEqual(notFound.responseHeaders["x-reason"], "deleted")
        XCTAssertEqual(notFound.responseBody, Data(#"{"error":"gone"}"#.utf8))
        guard case .decodingFailed(_, let body)? = malformed?.value?.error else {
            return XCTFail("expected decodingFailed: \(String(describing: malformed))")
        }
        XCTAssertEqual(body, Data("[1,".utf8))
        guard case .invalidURL("ftp://example.com/x")? = invalid?.value?.error else {
            return XCTFail("expected invalidURL: \(String(describing: invalid))")
        }
        XCTAssertEqual(server.requestCount, 2, "an invalid URL sends nothing")
    }

    func testCancellingTheResultFormCompletesOnceWithCancelled() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let network = layer(for: server)
        var task: NetworkTask?

        let result = outcome(of: Result<NetworkResponse<Echo>, NetworkError>.self) { recorder in
            let started = network.send(NetworkRequest(urlString: "stall"), completion: recorder.success)
            task = started
            return started
        } beforeWaiting: {
            XCTAssertNotNil(server.takeRequest(timeout: 5), "the request reached the server")
            task?.cancel()
            task?.cancel()
        }

        XCTAssertEqual(result?.value?.error?.isCancelled, true, String(describing: result))
    }
}
