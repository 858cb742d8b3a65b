import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

final class ResponseHandlingTests: PipelineTestCase {
    private let employees = [
        Employee(name: "Ann", salary: "1", age: "30"), Employee(name: "Bo", salary: "2", age: "40"),
    ]

    func testEvery2xxStatusIsSuccess() {
        for status in [200, 201, 202, 203, 226, 299] {
            stubs.stub(.get, "https://api.example.com/v1/e", with: .json(employees, status: status))
            let result = outcome(of: [Employee].self) {
                network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
            }
            XCTAssertEqual(result?.value, employees, "status \(status)")
        }
    }

    func testOtherStatusesCarryCodeBodyAndHeaders() {
        for status in [100, 301, 304, 400, 401, 404, 422, 500, 503] {
            let body = Data(#"{"error":"nope \#(status)"}"#.utf8)
            stubs.stub(
                .get, "https://api.example.com/v1/e",
                with: StubResponse(status: status, headers: ["X-Request-Id": "abc"], body: body))
            let error = outcome(of: [Employee].self) {
                network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard case .unacceptableStatusCode(let code, let sentBody, let headers)? = error else {
                XCTFail("status \(status) gave \(String(describing: error))")
                continue
            }
            XCTAssertEqual(code, status)
            XCTAssertEqual(sentBody, body)
            XCTAssertEqual(headers["x-request-id"], "abc")
            XCTAssertEqual(error?.statusCode, status)
            XCTAssertEqual(error?.responseBody, body)
        }
    }

    /// Issue 19, defect 9: an error's headers are read in any case, as a reply's are.
    func testAnErrorsHeadersAreReadInAnyCase() {
        stubs.stub(
            .get, "https://api.example.com/v1/e",
            with: StubResponse(
                status: 503, headers: ["Retry-After": "7", "X-Request-Id": "abc"], body: Data()))
        let error = outcome(of: [Employee].self) {
            network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
        }?.error
        guard case .unacceptableStatusCode(503, _, let headers)? = error else {
            return XCTFail("expected a 503, got \(String(describing: error))")
        }
        XCTAssertEqual(headers["retry-after"], "7")
        XCTAssertEqual(headers["RETRY-AFTER"], "7")
        XCTAssertEqual(headers["x-request-id"], "abc")
    }

    func testEmptyBodiesAreSuccessForVoidHandlers() {
        for (status, body) in [(204, Data()), (205, Data()), (200, Data()), (201, Data(#"{"id":1}"#.utf8))] {
            stubs.stub(.post, .any, with: StubResponse(status: status, body: body))
            let result = outcome(of: Void.self) {
                network.post(
                    urlString: "e", body: employees[0], successHandler: $0.done, errorHandler: $0.failure)
            }
            XCTAssertNotNil(result?.value, "status \(status)")
        }
    }

    func testEmptyBodiesAreEmptyResponseForDecodableTypes() {
        for status in [200, 204, 205] {
            stubs.stub(.get, .any, with: StubResponse(status: status))
            let error = outcome(of: Employee.self) {
                network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard case .emptyResponse? = error else {
                return XCTFail("status \(status) gave \(String(describing: error))")
            }
        }
    }

    func testEmptyResponseDecodesFromNothingAndFromJSON() {
        for body in [Data(), Data("{}".utf8), Data(#"{"ignored":true}"#.utf8)] {
            stubs.stub(.delete, .any, with: StubResponse(status: body.isEmpty ? 204 : 200, body: body))
            let result = outcome(of: EmptyResponse.self) {
                network.delete(urlString: "e/1", successHandler: $0.success, errorHandler: $0.failure)
            }
            XCTAssertEqual(result?.value, EmptyResponse())
        }
    }

    func testMalformedMistypedAndTruncatedJSONFailDecoding() {
        let bodies = [
            "{not json", #"[{"name":"Ann","salary":1,"age":"30"}]"#, #"[{"name":"Ann","sal"#,
            "<html>oops</html>",
            #"{"name":"Ann","salary":"1","age":"30"}"#,
        ]
        for text in bodies {
            stubs.stub(.get, .any, with: StubResponse(body: Data(text.utf8)))
            let error = outcome(of: [Employee].self) {
                network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard case .decodingFailed(_, let body)? = error else {
                return XCTFail("\(text) gave \(String(describing: error))")
            }
            XCTAssertEqual(body, Data(text.utf8))
        }
    }

    func testNonHTTPResponseIsInvalidResponse() {
        stubs.stub(.get, .any, with: .notHTTP(body: Data("[]".utf8)))
        let error = outcome(of: [Employee].self) {
            network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
        }?.error
        guard case .invalidResponse? = error else { return XCTFail("gave \(String(describing: error))") }
    }

    func testCustomDecoderIsUsed() {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Person: Decodable, Equatable { let firstName: String }
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), decoder: decoder)
        stubs.stub(.get, .any, with: StubResponse(body: Data(#"{"first_name":"Ann"}"#.utf8)))
        let result = outcome(of: Person.self) {
            network.get(urlString: "p", successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(result?.value, Person(firstName: "Ann"))
    }
}
