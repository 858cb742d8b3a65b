import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// What ``DummyNetworkLayer`` records, and the URL rule its stubs and queries use.
final class DummyNetworkLayerRecordingTests: XCTestCase {
    private let ann = Person(name: "Ann")

    func testRecordsWhatTheRealLayerWouldSend() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com/v1"),
            defaultHeaders: ["Authorization": "Bearer t", "X-Client": "default"], encoder: encoder)
        network.successResponse = ann
        let body = Wire(firstName: "Ann", score: 1.5)
        network.post(
            urlString: "people?source=app", body: body, headers: ["X-Client": "request"],
            successHandler: { (_: Person) in }, errorHandler: { XCTFail("\($0)") })
        let sent = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(sent.method, .post)
        XCTAssertEqual(sent.url.absoluteString, "https://api.example.com/v1/people?source=app")
        XCTAssertEqual(sent.header("authorization"), "Bearer t", "default headers merged")
        XCTAssertEqual(sent.header("X-Client"), "request", "the request's own headers win")
        XCTAssertEqual(sent.header("Accept"), "application/json")
        XCTAssertEqual(sent.header("Content-Type"), "application/json")
        XCTAssertEqual(sent.body, try encoder.encode(body), "encoded with the layer's encoder")
        XCTAssertEqual(
            String(decoding: sent.body ?? Data(), as: UTF8.self), #"{"first_name":"Ann","score":1.5}"#)
    }

    func testGetQueryIsInTheRecordedURL() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = [ann]
        network.get(
            urlString: "/search", query: ["q": "a b", "page": "2"], successHandler: { (_: [Person]) in },
            errorHandler: { XCTFail("\($0)") })
        XCTAssertEqual(
            network.recordedRequests.map(\.url.absoluteString),
            ["https://api.example.com/search?page=2&q=a%20b"])
    }

    func testAnInvalidURLIsRefusedWithInvalidURLAndNotRecorded() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        let got = Captured<Person>()
        network.get(urlString: "employees", successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.errorDescriptions, [#"invalidURL("employees")"#])
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(
            network.refusedRequests.map(\.description), [#"GET employees: invalidURL("employees")"#])
    }

    func testAnUnencodableBodyIsRefusedWithEncodingFailed() {
        let network = DummyNetworkLayer()
        let got = Captured<Void>()
        let task = network.post(
            urlString: "https://api.example.com/p", body: ["value": Double.nan],
            successHandler: { got.success(()) },
            errorHandler: got.failure)
        guard case .encodingFailed? = got.errors.first else {
            return XCTFail("expected encodingFailed, got \(got.errorDescriptions)")
        }
        XCTAssertEqual(got.count, 1)
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(network.refusedRequests.map(\.method), [.post])
        XCTAssertNil((task as? DummyTask)?.request)
        task.cancel()
        XCTAssertEqual((task as? DummyTask)?.cancelCount, 1)
        XCTAssertTrue(network.cancelledRequests.isEmpty, "only recorded requests are listed as cancelled")
    }

    func testRecordingIsSafeFromManyThreads() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ann
        let got = Captured<Person>()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            network.get(
                urlString: "/p", query: ["i": "\(index)"], successHandler: got.success,
                errorHandler: got.failure)
        }
        XCTAssertEqual(got.values.count, 200)
        XCTAssertEqual(Set(network.recordedRequests.map(\.url)).count, 200)
        XCTAssertEqual(network.callCount(.get, "/p"), 200)
    }

    func testRequestsToAndCallCount() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ann
        let ignore = Captured<Person>()
        network.get(urlString: "/employees", successHandler: ignore.success, errorHandler: ignore.failure)
        network.get(
            urlString: "/employees", query: ["page": "2"], successHandler: ignore.success,
            errorHandler: ignore.failure)
        network.post(
            urlString: "/employees", body: ann, successHandler: ignore.success, errorHandler: ignore.failure)
        XCTAssertEqual(network.callCount(.get, "/employees"), 2)
        XCTAssertEqual(network.callCount(.get, "https://api.example.com/employees?page=2"), 1)
        XCTAssertEqual(network.callCount(.post, "employees"), 1)
        XCTAssertEqual(network.requests(to: "/employees").map(\.method), [.get, .get, .post])
        XCTAssertEqual(try network.requests(.post, to: "/employees").first?.decodedBody(as: Person.self), ann)
    }

    // MARK: - The URL rule

    func testARelativeStubIsResolvedAgainstTheBaseURLByTheLayersRule() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com/v1/"))
        network.stub(.get, "employees", returning: ann)
        XCTAssertEqual(answers(network, "/employees"), "Ann")
        XCTAssertEqual(answers(network, "https://api.example.com/v1/employees"), "Ann")
        XCTAssertEqual(answers(network, "HTTPS://API.example.com/v1/employees"), "Ann")
        XCTAssertEqual(answers(network, "https://api.example.com/employees"), "-", "outside the base path")
        XCTAssertEqual(answers(network, "https://other.example.com/v1/employees"), "-", "another host")
        XCTAssertEqual(answers(network, "/employees/1"), "-", "a longer path")
    }

    func testWithoutABaseURLARelativeStubMatchesItsPathOnAnyHost() {
        let network = DummyNetworkLayer()
        network.stub(.get, "/employees", returning: ann)
        XCTAssertEqual(answers(network, "https://api.example.com/employees"), "Ann")
        XCTAssertEqual(answers(network, "http://localhost:8080/employees?page=1"), "Ann")
        XCTAssertEqual(answers(network, "https://api.example.com/v1/employees"), "-")
    }

    func testTheQueryIsIgnoredUnlessTheStubHasOne() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "/search", returning: Person(name: "any"))
        network.stub(.get, "/search?b=2&a=1", returning: Person(name: "a and b"))
        XCTAssertEqual(answers(network, "/search"), "any")
        XCTAssertEqual(answers(network, "/search", query: ["a": "9"]), "any")
        XCTAssertEqual(answers(network, "/search", query: ["a": "1", "b": "2"]), "a and b", "in any order")
        XCTAssertEqual(answers(network, "/search?a=1&b=2"), "a and b")
        XCTAssertEqual(answers(network, "/search?a=1&b=2&c=3"), "any", "the items must be the same")
    }

    func testAnUnresolvableStubMatchesNothingAndSaysSo() {
        let network = DummyNetworkLayer()
        network.stub(.get, "ftp://files.example.com/x", returning: ann)
        let got = Captured<Person>()
        network.get(
            urlString: "https://files.example.com/x", successHandler: got.success, errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(
            message.contains("ftp://files.example.com/x (not a valid URL: matches nothing)"), message)
    }

    /// The name of the person a GET to `urlString` is answered with, or `-` when it fails.
    private func answers(_ network: DummyNetworkLayer, _ urlString: String, query: [String: String] = [:])
        -> String
    {
        var name = "-"
        network.get(
            urlString: urlString, query: query, successHandler: { (person: Person) in name = person.name },
            errorHandler: { _ in })
        return name
    }
}

private struct Wire: Encodable {
    let firstName: String
    let score: Double
}
