import Foundation
import NetworkTestSupport
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
        let request = try network.builder.urlRequest(for: RequestDescription(method: .get, urlString: "x"))
        XCTAssertEqual(request.timeoutInterval, 7)
        let overridden = try network.builder.urlRequest(
            for: RequestDescription(method: .get, urlString: "x", timeout: 2))
        XCTAssertEqual(overridden.timeoutInterval, 2)
    }

    func testFormAndRawBodiesCarryTheirContentTypes() throws {
        let network = NetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let form = try network.builder.urlRequest(
            for: RequestDescription(method: .post, urlString: "f", body: .form(["b": "x y+z", "a": "1&2"])))
        XCTAssertEqual(
            form.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8"
        )
        XCTAssertEqual(form.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1%262&b=x%20y%2Bz")
        let raw = try network.builder.urlRequest(
            for: RequestDescription(
                method: .put, urlString: "r", body: .data(Data([1, 2]), contentType: "image/png")))
        XCTAssertEqual(raw.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(raw.httpBody, Data([1, 2]))
    }

    func testAHeadReplyIsEmptyEvenWithAContentLength() {
        let stubs = StubTransport()
        stubs.stub(.head, .any, with: StubResponse(status: 200, headers: ["Content-Length": "42"]))
        let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let result = outcome(of: EmptyResponse.self) { recorder in
            network.perform(
                RequestDescription(method: .head, urlString: "h"),
                decoding: .json(EmptyResponse.self, decoder: JSONDecoder()),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.value, EmptyResponse())
    }
}
