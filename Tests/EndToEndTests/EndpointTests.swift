import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Endpoints end to end: an API described as an enum, in an environment with a base path and headers.
final class EndpointTests: XCTestCase {
    private enum ItemsAPI: Endpoint {
        case item(id: String)
        case rename(id: String, fields: [String: String])
        case slow

        var path: String {
            switch self {
            case .item(let id), .rename(let id, _): "items/\(pathSegment: id)"
            case .slow: "slow"
            }
        }

        var method: HTTPMethod {
            if case .rename = self { .post } else { .get }
        }

        var headers: [String: String] {
            if case .rename = self { ["X-Form": "yes"] } else { [:] }
        }

        var body: RequestBody {
            if case .rename(_, let fields) = self { .form(fields) } else { .empty }
        }

        var timeout: TimeInterval? {
            if case .slow = self { 1 } else { nil }
        }
    }

    private func layer(for server: MockServer, queue: DispatchQueue = .main) throws -> NetworkLayer {
        let environment = APIEnvironment(
            baseURL: try XCTUnwrap(server.url("/api/v2/")),
            headers: ["X-Client": "e2e", "Authorization": "t"])
        return NetworkLayer(environment: environment, sessionConfiguration: .ephemeral, callbackQueue: queue)
    }

    func testPathSegmentWithSlashAndSpaceArrivesAsOneEncodedSegment() throws {
        let server = try MockServer.echoing(in: self)
        let network = try layer(for: server)

        let result = outcome(of: Echo.self) { recorder in
            network.request(
                ItemsAPI.item(id: "a/b c?d#e%f"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(echo.target, "/api/v2/items/a%2Fb%20c%3Fd%23e%25f")
        let segments = echo.target.split(separator: "/")
        XCTAssertEqual(segments.count, 4)
        XCTAssertEqual(segments.last?.removingPercentEncoding, "a/b c?d#e%f")
        XCTAssertEqual(echo.headers["x-client"], "e2e")
        XCTAssertEqual(echo.headers["authorization"], "t")
    }

    func testFormBodyArrivesFormEncoded() throws {
        let server = try MockServer.echoing(in: self)
        let network = try layer(for: server)
        let fields = ["name": "Ann Lee", "note": "a&b=c+d/é", "empty": ""]

        let result = outcome(of: Void.self) { recorder in
            network.request(
                ItemsAPI.rename(id: "7", fields: fields), successHandler: recorder.done,
                errorHandler: recorder.failure)
        }

        XCTAssertNotNil(result?.value, String(describing: result))
        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.target, "/api/v2/items/7")
        XCTAssertEqual(request.header("Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(request.header("X-Form"), "yes")
        XCTAssertEqual(request.bodyText, "empty=&name=Ann%20Lee&note=a%26b%3Dc%2Bd%2F%C3%A9")
        let decoded = URLComponents(string: "?" + (request.bodyText ?? ""))?.queryItems
        XCTAssertEqual(decoded?.count, 3)
        XCTAssertEqual(decoded?.first { $0.name == "note" }?.value, "a&b=c+d/é")
    }

    func testEndpointTimeoutOverridesTheLayersOnACustomQueue() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(body: Data("[1]".utf8)).delayed(beforeBody: 10))
        let queue = QueueMark.makeQueue("e2e.endpoints")
        let network = try layer(for: server, queue: queue)
        let start = Date()

        let result = outcome(of: [Int].self, on: queue, queueName: "e2e.endpoints") { recorder in
            network.request(ItemsAPI.slow, successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(
            result?.error?.isTimedOut, true, "headers came, the body never did: \(String(describing: result))"
        )
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the endpoint's 1 s, not the layer's 60 s")
        XCTAssertEqual(server.takeRequest(timeout: 1)?.target, "/api/v2/slow")
    }
}
