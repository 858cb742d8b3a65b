import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// What only a `NetworkRequest` can say, on the wire: repeated query items, a timeout of its own,
/// HEAD and OPTIONS without an endpoint.
final class RequestShapeTests: XCTestCase {
    private func layer(for server: MockServer, timeout: TimeInterval = 60) -> NetworkLayer {
        NetworkLayer(baseURL: server.url("/v1"), sessionConfiguration: .ephemeral, timeout: timeout)
    }

    func testQueryItemsRepeatKeepTheirOrderAndFollowTheQuery() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)
        let request = NetworkRequest<Echo>(
            urlString: "items?fixed=0", query: ["b": "2", "a": "1 1"],
            queryItems: [
                URLQueryItem(name: "ids", value: "2"), URLQueryItem(name: "ids", value: "1"),
                URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "q", value: "x&y=z+é"),
                URLQueryItem(name: "ids", value: "3"),
            ])

        let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let response = try XCTUnwrap(result?.value, String(describing: result))
        let expected = "/v1/items?fixed=0&a=1%201&b=2&ids=2&ids=1&flag&q=x%26y%3Dz%2B%C3%A9&ids=3"
        XCTAssertEqual(response.value.target, expected)
        XCTAssertEqual(response.url, server.url(expected))
        let received = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(
            received.queryItems,
            [
                URLQueryItem(name: "fixed", value: "0"), URLQueryItem(name: "a", value: "1 1"),
                URLQueryItem(name: "b", value: "2"), URLQueryItem(name: "ids", value: "2"),
                URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "flag", value: nil),
                URLQueryItem(name: "q", value: "x&y=z+é"), URLQueryItem(name: "ids", value: "3"),
            ])
    }

    func testQueryItemsAloneMakeTheWholeQuery() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)
        let request = NetworkRequest<Echo>(
            method: .delete, urlString: "items",
            queryItems: [URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "ids", value: "2")])

        let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value?.value.method, "DELETE", String(describing: result))
        XCTAssertEqual(result?.value?.value.target, "/v1/items?ids=1&ids=2")
    }

    func testARequestsOwnTimeoutOverridesTheLayersLongOne() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let network = layer(for: server, timeout: 30)
        let request = NetworkRequest<[String]>(urlString: "stall", timeout: 0.5)

        let started = Date()
        let result = outcome(of: NetworkResponse<[String]>.self, timeout: 5) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let elapsed = Date().timeIntervalSince(started)

        XCTAssertEqual(result?.error?.isTimedOut, true, String(describing: result))
        XCTAssertGreaterThanOrEqual(elapsed, 0.48, "fired early")
        XCTAssertLessThan(elapsed, 2.5, "the request's 0.5 s, not the layer's 30 s")
        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/v1/stall")
    }

    func testARequestsTimeoutDoesNotFailAnAnswerInTime() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(try MockResponse.json(["ok"]).delayed(beforeHeaders: 0.2))
        let network = layer(for: server, timeout: 0.1)
        let request = NetworkRequest<[String]>(urlString: "slow", timeout: 3)

        let result = outcome(of: NetworkResponse<[String]>.self, timeout: 8) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value?.value, ["ok"], "the request's 3 s, not the layer's 0.1 s")
    }

    func testARequestsOwnSizeLimitOverridesTheLayers() throws {
        let body = TestData.bytes(4_000)
        let server = try MockServer.started(in: self) { _ in
            MockResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: body)
        }
        let network = layer(for: server)

        let tooLarge = outcome(of: NetworkResponse<Data>.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "blob", maximumResponseSize: 1_000),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let fits = outcome(of: NetworkResponse<Data>.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "blob", maximumResponseSize: 4_000),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(
            tooLarge?.error?.transportCode, .dataLengthExceedsMaximum, String(describing: tooLarge))
        XCTAssertEqual(fits?.value?.value, body, String(describing: fits))
    }

    func testHeadThroughANetworkRequest() throws {
        let server = try MockServer.started(in: self) { request in
            try .json(Echo(request), headers: ["X-Total-Count": "42"])
        }
        let network = layer(for: server)

        let empty = outcome(of: NetworkResponse<EmptyResponse>.self) { recorder in
            network.send(
                NetworkRequest(method: .head, urlString: "items", query: ["page": "2"]),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let data = outcome(of: NetworkResponse<Data>.self) { recorder in
            network.send(
                NetworkRequest(method: .head, urlString: "items"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        let decoded = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(
                NetworkRequest(method: .head, urlString: "items"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        let head = try XCTUnwrap(empty?.value, String(describing: empty))
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.headers["x-total-count"], "42", "a HEAD reply's headers are what it is for")
        XCTAssertEqual(head.data, Data())
        XCTAssertEqual(data?.value?.value, Data(), String(describing: data))
        XCTAssertEqual(decoded?.error?.isEmptyResponse, true, String(describing: decoded))
        let recorded = server.recordedRequests
        XCTAssertEqual(recorded.map(\.method), ["HEAD", "HEAD", "HEAD"])
        XCTAssertEqual(recorded.first?.target, "/v1/items?page=2")
        XCTAssertEqual(recorded.map(\.body), [Data(), Data(), Data()])
    }

    func testOptionsThroughANetworkRequest() throws {
        let server = try MockServer.started(in: self) { request in
            try .json(Echo(request), headers: ["Allow": "GET, POST, OPTIONS"])
        }
        let network = layer(for: server)

        let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
            network.send(
                NetworkRequest(method: .options, urlString: "items", headers: ["X-Probe": "1"]),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let plain = outcome(of: NetworkResponse<EmptyResponse>.self) { recorder in
            network.send(
                NetworkRequest(method: .options, urlString: "*"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        let response = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(response.value.method, "OPTIONS")
        XCTAssertEqual(response.value.target, "/v1/items")
        XCTAssertEqual(response.value.headers["x-probe"], "1")
        XCTAssertEqual(response.headers["allow"], "GET, POST, OPTIONS")
        XCTAssertEqual(plain?.value?.statusCode, 200, String(describing: plain))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["OPTIONS", "OPTIONS"])
    }
}
