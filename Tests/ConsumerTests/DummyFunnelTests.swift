import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// `DummyNetworkLayer` through the funnel, as an app's tests use it: every request method is answered
/// by its `send`, synchronously, from typed or `Data` stubs, with the status and headers the
/// `NetworkResponse` forms read, and every request is recorded as the real layer would send it.
final class DummyFunnelTests: XCTestCase {
    private struct Item: Codable, Equatable {
        var id: Int
        var itemName: String
    }

    private struct ItemEndpoint: Endpoint {
        var path: String { "items/1" }
        var method: HTTPMethod { .get }
    }

    /// A dummy that counts its `send` calls: proof that every request method goes through it.
    private final class CountingDummy: DummyNetworkLayer, @unchecked Sendable {
        private let lock = NSLock()
        private var methods: [HTTPMethod] = []
        var sent: [HTTPMethod] { lock.withLock { methods } }

        @discardableResult
        override func send<Value>(
            _ request: NetworkRequest<Value>,
            successHandler: @escaping (NetworkResponse<Value>) -> Void,
            errorHandler: @escaping (NetworkError) -> Void
        ) -> NetworkTask {
            lock.withLock { methods.append(request.method) }
            return super.send(request, successHandler: successHandler, errorHandler: errorHandler)
        }
    }

    private static let base = "https://api.example.com/v1"
    private let item = Item(id: 1, itemName: "Ann")

    private func makeDummy() -> DummyNetworkLayer {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return DummyNetworkLayer(baseURL: URL(string: Self.base), decoder: decoder)
    }

    // MARK: - Every entry point

    func testEveryEntryPointIsAnsweredSynchronouslyThroughSend() {
        let network = CountingDummy(baseURL: URL(string: Self.base))
        network.successResponse = item
        var answers: [String] = []
        let value = { (name: String) in { (item: Item) in answers.append("\(name) \(item.itemName)") } }
        let response = { (name: String) in
            { (response: NetworkResponse<Item>) in answers.append("\(name) \(response.value.itemName)") }
        }
        let done = { (name: String) in { answers.append("\(name) done") } }
        let fail = { (error: NetworkError) in answers.append("error \(error)") }
        let starts: [(String, () -> Void)] = [
            ("get", { network.get(urlString: "items/1", successHandler: value("get"), errorHandler: fail) }),
            (
                "post",
                {
                    network.post(
                        urlString: "items", body: self.item, successHandler: value("post"), errorHandler: fail
                    )
                }
            ),
            (
                "post plain",
                {
                    network.post(
                        urlString: "items", body: self.item, successHandler: done("post plain"),
                        errorHandler: fail)
                }
            ),
            (
                "put",
                {
                    network.put(
                        urlString: "items/1", body: self.item, successHandler: value("put"),
                        errorHandler: fail)
                }
            ),
            (
                "put plain",
                {
                    network.put(
                        urlString: "items/1", body: self.item, successHandler: done("put plain"),
                        errorHandler: fail)
                }
            ),
            (
                "patch",
                {
                    network.patch(
                        urlString: "items/1", body: self.item, successHandler: value("patch"),
                        errorHandler: fail)
                }
            ),
            (
                "patch plain",
                {
                    network.patch(
                        urlString: "items/1", body: self.item, successHandler: done("patch plain"),
                        errorHandler: fail)
                }
            ),
            (
                "delete",
                { network.delete(urlString: "items/1", successHandler: value("delete"), errorHandler: fail) }
            ),
            (
                "delete plain",
                {
                    network.delete(
                        urlString: "items/1", successHandler: done("delete plain"), errorHandler: fail)
                }
            ),
            (
                "request",
                { network.request(ItemEndpoint(), successHandler: value("request"), errorHandler: fail) }
            ),
            (
                "request plain",
                { network.request(ItemEndpoint(), successHandler: done("request plain"), errorHandler: fail) }
            ),
            (
                "send",
                {
                    network.send(
                        NetworkRequest<Item>(urlString: "items/1"), successHandler: response("send"),
                        errorHandler: fail)
                }
            ),
            (
                "result",
                {
                    network.send(NetworkRequest<Item>(urlString: "items/1")) { result in
                        switch result {
                        case .success(let response): answers.append("result \(response.value.itemName)")
                        case .failure(let error): fail(error)
                        }
                    }
                }
            ),
        ]

        for (index, (name, start)) in starts.enumerated() {
            start()
            XCTAssertEqual(answers.count, index + 1, "\(name) was answered before the call returned")
            XCTAssertEqual(answers.last, name.hasSuffix("plain") ? "\(name) done" : "\(name) Ann")
        }
        XCTAssertEqual(network.sent.count, starts.count)
        XCTAssertEqual(network.recordedRequests.map(\.method), network.sent)
        XCTAssertEqual(
            network.sent.map(\.rawValue),
            ["GET"] + Array(repeating: "POST", count: 2) + Array(repeating: "PUT", count: 2)
                + Array(repeating: "PATCH", count: 2) + Array(repeating: "DELETE", count: 2)
                + Array(repeating: "GET", count: 4))
        XCTAssertEqual(network.recordedEndpoints.count, 2)
    }

    // MARK: - Stubs

    func testATypedStubAnswersTheValueWithTheRequestsURL() throws {
        let network = makeDummy()
        network.stub(.get, "items/1", returning: item)
        var value: Item?
        var response: NetworkResponse<Item>?

        network.get(urlString: "items/1", successHandler: { value = $0 }, errorHandler: { XCTFail("\($0)") })
        network.send(
            NetworkRequest(urlString: "/items/1"), successHandler: { response = $0 },
            errorHandler: { XCTFail("\($0)") })

        XCTAssertEqual(value, item)
        let answered = try XCTUnwrap(response)
        XCTAssertEqual(answered.value, item)
        XCTAssertEqual(answered.statusCode, 200)
        XCTAssertEqual(answered.headers, ResponseHeaders())
        XCTAssertEqual(answered.url?.absoluteString, "\(Self.base)/items/1")
        XCTAssertEqual(answered.data, Data(), "a typed stub has no bytes")
    }

    func testJSONDataStubsAreDecodedWithTheLayersDecoder() throws {
        let network = makeDummy()
        let json = Data(#"[{"id": 1, "item_name": "Ann"}, {"id": 2, "item_name": "Bo"}]"#.utf8)
        network.stub(.get, "items", returning: json)
        var items: [Item]?
        var response: NetworkResponse<[Item]>?

        network.get(urlString: "items", successHandler: { items = $0 }, errorHandler: { XCTFail("\($0)") })
        network.send(
            NetworkRequest(urlString: "items"), successHandler: { response = $0 },
            errorHandler: { XCTFail("\($0)") }
        )

        XCTAssertEqual(items, [item, Item(id: 2, itemName: "Bo")])
        XCTAssertEqual(response?.value, items)
        XCTAssertEqual(response?.data, json, "the stubbed bytes, as the real layer gives the body")
    }

    func testMalformedDataStubsFailAsDecodingFailed() {
        let network = makeDummy()
        let malformed = Data(#"[{"id": 1, "item_name": "Ann"},"#.utf8)
        let mistyped = Data(#"{"id": "one"}"#.utf8)
        network.stub(.get, "items", returning: malformed)
        network.stub(.get, "items/1", returning: mistyped)
        var errors: [NetworkError] = []

        network.get(
            urlString: "items", successHandler: { (_: [Item]) in XCTFail("decoded") },
            errorHandler: { errors.append($0) })
        network.send(NetworkRequest<Item>(urlString: "items/1")) { result in
            if case .failure(let error) = result { errors.append(error) }
        }

        XCTAssertEqual(errors.count, 2)
        for (error, body) in zip(errors, [malformed, mistyped]) {
            guard case .decodingFailed(_, let received) = error else {
                XCTFail("expected decodingFailed, got \(error)")
                continue
            }
            XCTAssertEqual(received, body)
        }
    }

    func testADataStubForADataRequestIsTheRawBytes() {
        let network = makeDummy()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A])
        let jsonText = Data(#""not decoded""#.utf8)
        network.stub(.get, "logo.png", returning: png)
        network.stub(.get, "quote", returning: jsonText)
        var plain: Data?
        var viaRequest: NetworkResponse<Data>?
        var quote: Data?

        network.get(urlString: "logo.png", successHandler: { plain = $0 }, errorHandler: { XCTFail("\($0)") })
        network.send(
            NetworkRequest<Data>(urlString: "logo.png"), successHandler: { viaRequest = $0 },
            errorHandler: { XCTFail("\($0)") })
        network.get(urlString: "quote", successHandler: { quote = $0 }, errorHandler: { XCTFail("\($0)") })

        XCTAssertEqual(plain, png)
        XCTAssertEqual(viaRequest?.value, png)
        XCTAssertEqual(viaRequest?.data, png)
        XCTAssertEqual(quote, jsonText, "Data is never decoded, even when it is JSON")
    }

    func testAStubsStatusAndHeadersReachTheResponseForms() {
        let network = makeDummy()
        network.stub(
            .post, "items", returning: item, statusCode: 201,
            headers: ["ETag": "\"v3\"", "X-Total-Count": "7"])
        network.stub(
            .get, "items",
            outcomes: [.response(Data("[]".utf8), statusCode: 206, headers: ["Content-Range": "0-0/0"])])
        var created: NetworkResponse<Item>?
        var createdValue: Item?
        var listed: Result<NetworkResponse<[Item]>, NetworkError>?

        network.send(
            NetworkRequest(method: .post, urlString: "items", body: .json(item)),
            successHandler: { created = $0 },
            errorHandler: { XCTFail("\($0)") })
        network.post(
            urlString: "items", body: item, successHandler: { createdValue = $0 },
            errorHandler: { XCTFail("\($0)") })
        network.send(NetworkRequest(urlString: "items")) { listed = $0 }

        XCTAssertEqual(created?.statusCode, 201)
        XCTAssertEqual(created?.value, item)
        XCTAssertEqual(created?.headers["etag"], "\"v3\"")
        XCTAssertEqual(created?.headers["x-total-count"], "7")
        XCTAssertEqual(created?.headers["X-TOTAL-COUNT"], "7")
        XCTAssertEqual(createdValue, item, "the plain form gets the value alone")
        let list = try? listed?.get()
        XCTAssertEqual(list?.statusCode, 206)
        XCTAssertEqual(list?.value, [])
        XCTAssertEqual(list?.headers["content-range"], "0-0/0")
    }

    func testTheResultFormFailsWithTheStubbedError() {
        let network = makeDummy()
        network.stub(
            .delete, "items/1",
            failingWith: .unacceptableStatusCode(409, body: Data("busy".utf8), headers: [:]))
        var result: Result<NetworkResponse<EmptyResponse>, NetworkError>?

        network.send(NetworkRequest<EmptyResponse>(method: .delete, urlString: "items/1")) { result = $0 }

        guard case .failure(let error)? = result else {
            return XCTFail("expected a failure: \(String(describing: result))")
        }
        XCTAssertEqual(error.statusCode, 409)
        XCTAssertEqual(error.responseBody, Data("busy".utf8))
    }

    // MARK: - Delivery and recording

    func testRecordingIsAsBeforeForANetworkRequest() throws {
        let network = DummyNetworkLayer(
            baseURL: URL(string: Self.base), defaultHeaders: ["Authorization": "Bearer t"])
        let csv = Data("id,name\n1,Ann\n".utf8)
        var answered = false

        network.send(
            NetworkRequest<EmptyResponse>(
                method: .put, urlString: "items/1.csv", headers: ["Content-Type": "text/csv"],
                body: .json(csv)),
            successHandler: { _ in answered = true }, errorHandler: { XCTFail("\($0)") })

        XCTAssertTrue(answered, "delivered before send returned")
        let recorded = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(network.recordedRequests.count, 1)
        XCTAssertEqual(recorded.method, .put)
        XCTAssertEqual(recorded.url.absoluteString, "\(Self.base)/items/1.csv")
        XCTAssertEqual(recorded.header("authorization"), "Bearer t")
        XCTAssertEqual(recorded.header("content-type"), "text/csv")
        XCTAssertEqual(recorded.body, csv, "the bytes the real layer would send, not base64 JSON")
        XCTAssertEqual(network.callCount(.put, "items/1.csv"), 1)
    }

    func testANetworkRequestWithQueryItemsIsRecordedWithItsFullURL() throws {
        let network = makeDummy()
        network.successResponse = [item]
        var items: [Item]?

        network.send(
            NetworkRequest<[Item]>(
                urlString: "items", query: ["sort": "name"],
                queryItems: [
                    URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "ids", value: "2"),
                    URLQueryItem(name: "archived", value: nil),
                ]),
            successHandler: { items = $0.value }, errorHandler: { XCTFail("\($0)") })

        XCTAssertEqual(items, [item])
        let recorded = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(recorded.url.absoluteString, "\(Self.base)/items?sort=name&ids=1&ids=2&archived")
        XCTAssertEqual(
            network.callCount(.get, "items?archived&ids=2&ids=1&sort=name"), 1, "any order matches")
        XCTAssertEqual(network.callCount(.get, "items?ids=1&sort=name"), 0, "every item must match")
        XCTAssertEqual(network.callCount(.get, "items"), 1)
    }

    func testARefusedNetworkRequestIsNotRecordedAndFailsAtOnce() {
        let network = makeDummy()
        var error: NetworkError?

        network.send(NetworkRequest<Data>(urlString: "ftp://example.com/file")) { result in
            if case .failure(let failure) = result { error = failure }
        }

        guard case .invalidURL("ftp://example.com/file")? = error else {
            return XCTFail("expected invalidURL: \(String(describing: error))")
        }
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(network.refusedRequests.map(\.urlString), ["ftp://example.com/file"])
    }

    func testADeliveryQueueDeliversTheResponseFormsLater() {
        let network = makeDummy()
        network.deliveryQueue = .main
        network.stub(.get, "items/1", returning: item, statusCode: 203, headers: ["ETag": "1"])
        var response: NetworkResponse<Item>?
        let delivered = expectation(description: "delivered")

        network.send(
            NetworkRequest(urlString: "items/1"),
            successHandler: { (answer: NetworkResponse<Item>) in
                response = answer
                delivered.fulfill()
            }, errorHandler: { XCTFail("\($0)") })

        XCTAssertNil(response, "nothing is delivered inside the call")
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(response?.statusCode, 203)
        XCTAssertEqual(response?.headers["etag"], "1")
    }
}
