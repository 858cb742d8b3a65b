import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// An endpoint whose every part a test sets.
struct TestEndpoint: Endpoint {
    var path: String
    var method: HTTPMethod = .get
    var query: [String: String] = [:]
    var headers: [String: String] = [:]
    var body: RequestBody = .empty
    var timeout: TimeInterval? = nil
}

/// An endpoint that states only its path and method.
enum MinimalAPI: Endpoint {
    case user(id: String)

    var path: String {
        switch self {
        case .user(let id): "users/\(pathSegment: id)"
        }
    }

    var method: HTTPMethod { .get }
}

final class EndpointTests: XCTestCase {
    private let stubs = StubTransport()

    private func sentURL(base: String, _ endpoint: any Endpoint) -> Result<String, NetworkError>? {
        let network = stubs.makeNetworkLayer(baseURL: URL(string: base))
        stubs.reset()
        stubs.stub(nil, .any, with: StubResponse(status: 204))
        let result = outcome(of: Void.self) {
            network.request(endpoint, successHandler: $0.done, errorHandler: $0.failure)
        }
        return result?.map { self.stubs.recordedRequests.last?.url.absoluteString ?? "(nothing sent)" }
    }

    func testPathsJoinTheBaseURLByTheOneRule() {
        let cases: [(base: String, path: String, expected: String)] = [
            ("https://api.example.com/v1", "users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1", "/users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1/", "users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1/", "/users", "https://api.example.com/v1/users"),
            ("https://api.example.com", "users/", "https://api.example.com/users/"),
            (
                "https://api.example.com/v1", "users?active=true",
                "https://api.example.com/v1/users?active=true"
            ),
            ("http://127.0.0.1:8080", "/a/b/c", "http://127.0.0.1:8080/a/b/c"),
        ]
        for (base, path, expected) in cases {
            XCTAssertEqual(
                sentURL(base: base, TestEndpoint(path: path))?.value, expected, "\(base) + \(path)")
        }
    }

    func testPathSegmentsStayOneSegment() {
        let cases: [(id: String, expected: String)] = [
            ("42", "https://api.example.com/v1/users/42"),
            ("a/b", "https://api.example.com/v1/users/a%2Fb"),
            ("what?x=1", "https://api.example.com/v1/users/what%3Fx%3D1"),
            ("tag#1", "https://api.example.com/v1/users/tag%231"),
            ("Jo Ann", "https://api.example.com/v1/users/Jo%20Ann"),
            ("Zoë", "https://api.example.com/v1/users/Zo%C3%AB"),
            ("a:b", "https://api.example.com/v1/users/a%3Ab"),
        ]
        for (id, expected) in cases {
            XCTAssertEqual(
                sentURL(base: "https://api.example.com/v1/", MinimalAPI.user(id: id))?.value, expected, id)
        }
    }

    func testPathsThatWouldLeaveTheBaseAreRefused() {
        for path in [
            "//evil.example.com/x", "https://evil.example.com/x", "http://evil.example.com", "ftp://x/y",
            "../admin", "users/../../admin", "javascript:alert(1)",
        ] {
            let error = sentURL(base: "https://api.example.com/v1", TestEndpoint(path: path))?.error
            guard case .invalidURL(path)? = error else {
                return XCTFail("\(path) gave \(String(describing: error))")
            }
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
        let noBase = sentURL(base: "", TestEndpoint(path: "users"))?.error
        guard case .invalidURL? = noBase else {
            return XCTFail("no base URL gave \(String(describing: noBase))")
        }
    }

    func testQueryHeadersAndMethodReachTheWire() throws {
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), defaultHeaders: ["X-A": "layer"])
        stubs.stub(.delete, .any, with: StubResponse(status: 204))
        let endpoint = TestEndpoint(
            path: "items", method: .delete, query: ["ids": "1,2", "force": "yes please"],
            headers: ["X-A": "endpoint"])
        outcome(of: Void.self) {
            network.request(endpoint, successHandler: $0.done, errorHandler: $0.failure)
        }
        let sent = try XCTUnwrap(stubs.recordedRequests.first)
        XCTAssertEqual(sent.method, .delete)
        XCTAssertEqual(sent.url.absoluteString, "https://api.example.com/items?force=yes%20please&ids=1%2C2")
        XCTAssertEqual(sent.header("X-A"), "endpoint")
    }

    func testEachBodyKindOnTheWire() throws {
        // Sorted keys: JSONEncoder's key order is otherwise not stable from one encode to the next.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), encoder: encoder)
        let employee = Employee(name: "Ann", salary: "1", age: "30")
        let bodies: [(RequestBody, contentType: String?, bytes: Data?)] = [
            (.empty, nil, nil),
            (.json(employee), "application/json", Data(#"{"age":"30","name":"Ann","salary":"1"}"#.utf8)),
            (
                .data(Data([0, 1, 2]), contentType: "application/octet-stream"), "application/octet-stream",
                Data([0, 1, 2])
            ),
            (
                .form(["name": "Ann & Bo", "city": "Zürich"]),
                "application/x-www-form-urlencoded; charset=utf-8",
                Data("city=Z%C3%BCrich&name=Ann%20%26%20Bo".utf8)
            ),
        ]
        for (body, contentType, bytes) in bodies {
            stubs.reset()
            stubs.stub(.post, .any, with: StubResponse(status: 204))
            outcome(of: Void.self) {
                network.request(
                    TestEndpoint(path: "p", method: .post, body: body), successHandler: $0.done,
                    errorHandler: $0.failure)
            }
            let sent = try XCTUnwrap(stubs.recordedRequests.first)
            XCTAssertEqual(sent.header("Content-Type"), contentType)
            XCTAssertEqual(sent.body?.isEmpty ?? true ? nil : sent.body, bytes)
        }
    }

    func testDecodedRepliesAndUnencodableBodies() {
        let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        stubs.stub(.get, .any, with: .json(["a", "b"]))
        let letters = outcome(of: [String].self) {
            network.request(
                TestEndpoint(path: "letters"), successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(letters?.value, ["a", "b"])
        let error = outcome(of: Void.self) {
            network.request(
                TestEndpoint(path: "x", method: .post, body: .json(["v": Double.nan])),
                successHandler: $0.done,
                errorHandler: $0.failure)
        }?.error
        guard case .encodingFailed? = error else { return XCTFail("gave \(String(describing: error))") }
    }

    func testAnEnvironmentGivesBaseURLAndHeaders() throws {
        let staging = APIEnvironment(
            baseURL: try XCTUnwrap(URL(string: "https://staging.example.com/v1/")),
            headers: ["X-Client": "ios"])
        let network = NetworkLayer(
            environment: staging, sessionConfiguration: stubs.makeConfiguration(), callbackQueue: .main,
            timeout: 5)
        XCTAssertEqual(network.baseURL, staging.baseURL)
        XCTAssertEqual(network.defaultHeaders, ["X-Client": "ios"])
        XCTAssertEqual(network.timeout, 5)
        stubs.stub(.get, "https://staging.example.com/v1/users/7", with: .json(["ok"]))
        let result = outcome(of: [String].self) {
            network.request(MinimalAPI.user(id: "7"), successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(result?.value, ["ok"])
        XCTAssertEqual(stubs.recordedRequests.first?.header("X-Client"), "ios")
    }
}
