import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Each status code reaches its handler with its payload: success statuses the success handler,
/// error statuses `.unacceptableStatusCode` with the server's body and headers.
final class StatusTests: XCTestCase {
    private struct Item: Codable, Equatable {
        var id: Int
        var name: String
    }

    private let item = Item(id: 1, name: "one")

    func testOKAndCreatedDecodeInBothForms() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [
            try .json(item, status: 200), try .json(item, status: 201), try .json(item, status: 201),
            MockResponse(status: 201, headers: ["Location": "/items/2"]),
        ])
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let ok = outcome(of: Item.self) { recorder in
            network.get(
                urlString: "items/1", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let created = outcome(of: Item.self) { recorder in
            network.post(
                urlString: "items", body: item, successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        let createdPlain = outcome(of: Void.self) { recorder in
            network.post(
                urlString: "items", body: item, successHandler: recorder.done, errorHandler: recorder.failure)
        }
        let createdWithoutBody = outcome(of: Void.self) { recorder in
            network.put(
                urlString: "items/2", body: item, successHandler: recorder.done,
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(ok?.value, item)
        XCTAssertEqual(created?.value, item)
        XCTAssertNotNil(createdPlain?.value)
        XCTAssertNotNil(createdWithoutBody?.value)
    }

    func testNoContentIsSuccessWithoutABodyAndEmptyForADecodedType() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let plain = outcome(of: Void.self) { recorder in
            network.delete(
                urlString: "items/1", successHandler: recorder.done, errorHandler: recorder.failure)
        }
        let empty = outcome(of: EmptyResponse.self) { recorder in
            network.delete(
                urlString: "items/1", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let decoded = outcome(of: Item.self) { recorder in
            network.get(
                urlString: "items/1", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertNotNil(plain?.value)
        XCTAssertEqual(empty?.value, EmptyResponse())
        XCTAssertEqual(decoded?.error?.isEmptyResponse, true, String(describing: decoded))
        XCTAssertEqual(server.requestCount, 3, "a 204 leaves the kept-alive connection usable")
    }

    func testErrorStatusesCarryTheirBodyAndHeadersInBothForms() throws {
        let statuses: [Int: [String: String]] = [
            400: ["X-Request-Id": "r400"],
            401: [
                "X-Request-Id": "r401", "WWW-Authenticate": "Bearer realm=\"e2e\", error=\"invalid_token\"",
            ],
            404: ["X-Request-Id": "r404"],
            500: ["X-Request-Id": "r500"],
            503: ["X-Request-Id": "r503", "Retry-After": "120"],
        ]
        let server = try MockServer.started(in: self) { request in
            let status = Int(request.path.dropFirst()) ?? 500
            let problem = #"{"error":"status \#(status)","detail":"ü ✓"}"#
            var response = MockResponse.json(raw: problem, status: status)
            for (name, value) in statuses[status] ?? [:] { response = response.addingHeader(name, value) }
            return response
        }
        // The 503's `Retry-After: 120` would hold the origin for the requests after it.
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral,
            scheduling: RequestScheduling(waitsForRateLimits: false))

        for (status, headers) in statuses.sorted(by: { $0.key < $1.key }) {
            let decoded = outcome(of: Item.self) { recorder in
                network.get(
                    urlString: "\(status)", successHandler: recorder.success, errorHandler: recorder.failure)
            }
            let plain = outcome(of: Void.self) { recorder in
                network.post(
                    urlString: "\(status)", body: item, successHandler: recorder.done,
                    errorHandler: recorder.failure)
            }

            for result in [decoded?.error, plain?.error] {
                let error = try XCTUnwrap(result, "\(status)")
                let expectedBody = Data(#"{"error":"status \#(status)","detail":"ü ✓"}"#.utf8)
                guard case .unacceptableStatusCode(let code, let body, _) = error else {
                    XCTFail("\(status): \(error)")
                    continue
                }
                XCTAssertEqual(code, status)
                XCTAssertEqual(body, expectedBody)
                XCTAssertEqual(error.statusCode, status)
                XCTAssertEqual(error.responseBody, expectedBody)
                XCTAssertTrue(error.message.contains("\(status)"), error.message)
                XCTAssertEqual(error.responseHeaders["content-type"], "application/json")
                for (name, value) in headers {
                    XCTAssertEqual(error.responseHeaders[name.lowercased()], value, "\(status) \(name)")
                }
            }
        }
        XCTAssertEqual(server.requestCount, 2 * statuses.count)
    }
}
