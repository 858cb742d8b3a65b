import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Every method in both reply forms, through the shared session (`NetworkLayer(baseURL:)` with no
/// configuration): method, query, headers and JSON bodies reach the server byte for byte.
final class MethodsTests: XCTestCase {
    private struct Note: Codable, Equatable {
        var id: Int
        var text: String
        var tags: [String]
    }

    /// A GET, or a HEAD, through an endpoint: the only way to send them with a `() -> Void` handler.
    private struct Resource: Endpoint {
        var method: HTTPMethod
        var path: String { "items/1" }
        var query: [String: String] { ["view": "full list"] }
        var headers: [String: String] { ["X-Endpoint": "yes"] }
    }

    private let note = Note(
        id: 7, text: "Grüße, \"quotes\", a / slash,\nnew line ✓ \u{1F600}", tags: ["a", "b&c"])
    private let trickyHeader = "abc; q=1, \"x y\"/+=&"

    private func layer(for server: MockServer) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.url("/v1"),
            defaultHeaders: ["Authorization": "Bearer e2e", "X-Client": "default"],
            encoder: TestData.encoder())
    }

    func testGetSendsQueryAndHeadersByteExact() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)

        let result = outcome(of: Echo.self) { recorder in
            network.get(
                urlString: "items", query: ["q": "a b&c=d+e/é?#", "page": "2", "empty": ""],
                headers: ["X-Trace": trickyHeader, "x-client": "request"],
                successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(result?.value)
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.target, "/v1/items?empty=&page=2&q=a%20b%26c%3Dd%2Be%2F%C3%A9%3F%23")
        XCTAssertEqual(echo.headers["accept"], "application/json")
        XCTAssertEqual(echo.headers["authorization"], "Bearer e2e")
        XCTAssertEqual(echo.headers["x-client"], "request", "a request's header overrides a default one")
        XCTAssertEqual(echo.headers["x-trace"], trickyHeader)
        XCTAssertNil(echo.headers["content-type"])
        XCTAssertEqual(echo.bodyLength, 0)
        XCTAssertEqual(server.takeRequest(timeout: 1)?.queryValue("q"), "a b&c=d+e/é?#")
    }

    func testGetAndHeadThroughEndpointsInBothForms() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)

        let get = outcome(of: Void.self) { recorder in
            network.request(
                Resource(method: .get), successHandler: recorder.done, errorHandler: recorder.failure)
        }
        let headDecoded = outcome(of: EmptyResponse.self) { recorder in
            network.request(
                Resource(method: .head), successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let head = outcome(of: Void.self) { recorder in
            network.request(
                Resource(method: .head), successHandler: recorder.done, errorHandler: recorder.failure)
        }
        let headAsEcho = outcome(of: Echo.self) { recorder in
            network.request(
                Resource(method: .head), successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertNotNil(get?.value)
        XCTAssertEqual(headDecoded?.value, EmptyResponse())
        XCTAssertNotNil(head?.value)
        XCTAssertEqual(
            headAsEcho?.error?.isEmptyResponse, true,
            "a HEAD reply has nothing to decode: \(String(describing: headAsEcho))")
        let recorded = (0..<4).compactMap { _ in server.takeRequest(timeout: 1) }
        XCTAssertEqual(recorded.map(\.method), ["GET", "HEAD", "HEAD", "HEAD"])
        for request in recorded {
            XCTAssertEqual(request.target, "/v1/items/1?view=full%20list")
            XCTAssertEqual(request.header("X-Endpoint"), "yes")
            XCTAssertEqual(request.header("Authorization"), "Bearer e2e")
            XCTAssertEqual(request.body, Data())
        }
    }

    func testPostPutAndPatchSendJSONBodiesInBothForms() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)
        let expected = try TestData.encoder().encode(note)

        for method in [HTTPMethod.post, .put, .patch] {
            let decoded = outcome(of: Echo.self) { recorder in
                send(
                    method, note, with: network, successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }
            let plain = outcome(of: Void.self) { recorder in
                send(
                    method, note, with: network, successHandler: recorder.done, errorHandler: recorder.failure
                )
            }

            let echo = try XCTUnwrap(decoded?.value, "\(method)")
            XCTAssertEqual(echo.method, method.rawValue)
            XCTAssertEqual(echo.target, "/v1/notes/7?mode=a%20b")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(expected), "\(method)")
            XCTAssertEqual(echo.headers["content-type"], "application/json")
            XCTAssertEqual(echo.headers["content-length"], String(expected.count))
            XCTAssertEqual(echo.headers["x-trace"], trickyHeader)
            XCTAssertNotNil(plain?.value, "\(method): any 2xx is success for the () -> Void form")
            let requests = (0..<2).compactMap { _ in server.takeRequest(timeout: 1) }
            XCTAssertEqual(requests.map(\.method), [method.rawValue, method.rawValue])
            XCTAssertEqual(requests.map(\.body), [expected, expected])
            XCTAssertEqual(try requests.last?.decodedBody(as: Note.self), note)
        }
    }

    func testDeleteInBothForms() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)

        let decoded = outcome(of: Echo.self) { recorder in
            network.delete(
                urlString: "/notes/7", headers: ["X-Trace": trickyHeader], successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        let plain = outcome(of: Void.self) { recorder in
            network.delete(
                urlString: "notes/8", successHandler: recorder.done, errorHandler: recorder.failure)
        }

        let echo = try XCTUnwrap(decoded?.value)
        XCTAssertEqual(echo.method, "DELETE")
        XCTAssertEqual(echo.target, "/v1/notes/7")
        XCTAssertEqual(echo.headers["x-trace"], trickyHeader)
        XCTAssertEqual(echo.bodyLength, 0)
        XCTAssertNil(echo.headers["content-type"])
        XCTAssertNotNil(plain?.value)
        XCTAssertEqual(server.recordedRequests.map(\.target), ["/v1/notes/7", "/v1/notes/8"])
    }

    private func send<R>(
        _ method: HTTPMethod, _ body: Note, with network: NetworkLayer,
        successHandler: @escaping (R) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask where R: Decodable & SendableMetatype {
        let path = "notes/7?mode=a%20b"
        let headers = ["X-Trace": trickyHeader]
        switch method {
        case .put:
            return network.put(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        case .patch:
            return network.patch(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        default:
            return network.post(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        }
    }

    private func send(
        _ method: HTTPMethod, _ body: Note, with network: NetworkLayer,
        successHandler: @escaping () -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let path = "notes/7?mode=a%20b"
        let headers = ["X-Trace": trickyHeader]
        switch method {
        case .put:
            return network.put(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        case .patch:
            return network.patch(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        default:
            return network.post(
                urlString: path, body: body, headers: headers, successHandler: successHandler,
                errorHandler: errorHandler)
        }
    }
}
