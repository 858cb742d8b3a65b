import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Contract points that need the layer's internals to observe.
final class InternalContractTests: XCTestCase {
    func testLayersWithoutAConfigurationShareOneSession() {
        let first = NetworkLayer()
        let second = NetworkLayer(baseURL: URL(string: "https://api.example.com"))
        XCTAssertTrue(first.transport === SessionTransport.shared)
        XCTAssertTrue(second.transport === SessionTransport.shared)
        let owned = NetworkLayer(sessionConfiguration: .ephemeral)
        XCTAssertFalse(owned.transport === SessionTransport.shared)
    }

    func testTimeoutAppliesPerRequest() throws {
        let network = NetworkLayer(baseURL: URL(string: "https://api.example.com"), timeout: 7)
        let request = try network.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(method: .get, urlString: "x"))
        XCTAssertEqual(request.timeoutInterval, 7)
        let overridden = try network.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(method: .get, urlString: "x", timeout: 2))
        XCTAssertEqual(overridden.timeoutInterval, 2)
    }

    func testFormAndRawBodiesCarryTheirContentTypes() throws {
        let network = NetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let form = try network.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(
                method: .post, urlString: "f", body: .form(["b": "x y+z", "a": "1&2"])))
        XCTAssertEqual(
            form.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8"
        )
        XCTAssertEqual(form.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1%262&b=x%20y%2Bz")
        let raw = try network.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(
                method: .put, urlString: "r", body: .data(Data([1, 2]), contentType: "image/png")))
        XCTAssertEqual(raw.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(raw.httpBody, Data([1, 2]))
    }

    func testAHeadReplyIsEmptyEvenWithAContentLength() {
        let stubs = StubTransport()
        stubs.stub(.head, .any, with: StubResponse(status: 200, headers: ["Content-Length": "42"]))
        let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let result = outcome(of: EmptyResponse.self) { recorder in
            network.send(
                NetworkRequest<EmptyResponse>(method: .head, urlString: "h"),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.value, EmptyResponse())
    }

    func testRedirectPolicy() throws {
        func response(_ status: Int, _ url: String) throws -> HTTPURLResponse {
            try XCTUnwrap(
                HTTPURLResponse(
                    url: try XCTUnwrap(URL(string: url)), statusCode: status, httpVersion: nil,
                    headerFields: [:]))
        }
        func request(_ url: String, body: Data? = nil) throws -> URLRequest {
            var request = URLRequest(url: try XCTUnwrap(URL(string: url)))
            request.httpBody = body
            request.httpMethod = body == nil ? "GET" : "POST"
            request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
            request.setValue("s=1", forHTTPHeaderField: "Cookie")
            return request
        }
        let origin = try request("https://api.example.com/a", body: Data("{}".utf8))
        for status in [307, 308] {
            XCTAssertNil(
                RedirectPolicy.default.request(
                    following: try response(status, "https://api.example.com/a"),
                    to: try request("https://api.example.com/b"),
                    from: origin), "\(status) with a body")
            XCTAssertNotNil(
                RedirectPolicy.default.request(
                    following: try response(status, "https://api.example.com/a"),
                    to: try request("https://api.example.com/b"),
                    from: try request("https://api.example.com/a")), "\(status) without a body")
        }
        let same = RedirectPolicy.default.request(
            following: try response(302, "https://api.example.com/a"),
            to: try request("https://API.example.com:443/b"),
            from: origin)
        XCTAssertEqual(same?.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        for other in [
            "https://evil.example.com/b", "https://api.example.com:8443/b",
        ] {
            let followed = RedirectPolicy.default.request(
                following: try response(301, "https://api.example.com/a"), to: try request(other),
                from: origin)
            XCTAssertNil(followed?.value(forHTTPHeaderField: "Authorization"), other)
            XCTAssertNil(followed?.value(forHTTPHeaderField: "Cookie"), other)
            XCTAssertEqual(followed?.url?.absoluteString, other)
        }
    }
}
