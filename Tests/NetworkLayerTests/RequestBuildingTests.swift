import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

final class RequestBuildingTests: PipelineTestCase {
    func testGetSendsMethodURLQueryAndAcceptHeader() throws {
        stubs.stub(.get, .prefix("https://api.example.com/v1/employees"), with: .json([Employee]()))
        outcome(of: [Employee].self) {
            network.get(
                urlString: "/employees", query: ["q": "a+b"], successHandler: $0.success,
                errorHandler: $0.failure)
        }
        let sent = try XCTUnwrap(stubs.recordedRequests.first)
        XCTAssertEqual(sent.method, .get)
        XCTAssertEqual(sent.url.absoluteString, "https://api.example.com/v1/employees?q=a%2Bb")
        XCTAssertEqual(sent.header("Accept"), "application/json")
        XCTAssertNil(sent.header("Content-Type"))
        XCTAssertTrue(sent.body?.isEmpty ?? true)
    }

    func testEachMethodSendsItsVerbAndJSONBody() throws {
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        let employee = Employee(name: "Ann", salary: "1", age: "30")
        outcome(of: Void.self) {
            network.post(urlString: "e", body: employee, successHandler: $0.done, errorHandler: $0.failure)
        }
        outcome(of: Void.self) {
            network.put(urlString: "e", body: employee, successHandler: $0.done, errorHandler: $0.failure)
        }
        outcome(of: Void.self) {
            network.patch(urlString: "e", body: employee, successHandler: $0.done, errorHandler: $0.failure)
        }
        outcome(of: Void.self) {
            network.delete(urlString: "e", successHandler: $0.done, errorHandler: $0.failure)
        }
        let sent = stubs.recordedRequests
        XCTAssertEqual(sent.map(\.method), [.post, .put, .patch, .delete])
        for request in sent.prefix(3) {
            XCTAssertEqual(request.header("Content-Type"), "application/json")
            XCTAssertEqual(try request.decodedBody(as: Employee.self), employee)
        }
        XCTAssertNil(sent[3].header("Content-Type"))
    }

    func testDefaultHeadersApplyAndPerCallHeadersOverrideThem() throws {
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"),
            defaultHeaders: ["Authorization": "Bearer default", "X-Client": "ios"])
        stubs.stub(.get, .any, with: .json(EmptyJSON()))
        outcome(of: EmptyJSON.self) {
            network.get(
                urlString: "me",
                headers: ["authorization": "Bearer mine", "Accept": "application/vnd.api+json"],
                successHandler: $0.success, errorHandler: $0.failure)
        }
        let sent = try XCTUnwrap(stubs.recordedRequests.first)
        XCTAssertEqual(sent.header("Authorization"), "Bearer mine")
        XCTAssertEqual(sent.header("X-Client"), "ios")
        XCTAssertEqual(sent.header("Accept"), "application/vnd.api+json")
        XCTAssertEqual(sent.headers.keys.filter { $0.lowercased() == "authorization" }.count, 1)
    }

    func testCustomEncoderShapesTheBody() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), encoder: encoder)
        stubs.stub(.post, .any, with: StubResponse(status: 201))
        outcome(of: Void.self) {
            network.post(
                urlString: "x", body: ["firstName": "Ann"] as [String: String], successHandler: $0.done,
                errorHandler: $0.failure)
        }
        struct Snake: Encodable { let firstName = "Ann" }
        outcome(of: Void.self) {
            network.post(urlString: "x", body: Snake(), successHandler: $0.done, errorHandler: $0.failure)
        }
        let body = try XCTUnwrap(stubs.recordedRequests.last?.body)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"first_name":"Ann"}"#)
    }
}

/// A reply type that decodes from `{}`.
struct EmptyJSON: Codable, Equatable {}
