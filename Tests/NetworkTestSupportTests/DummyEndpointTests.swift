import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

private enum ShopAPI: Endpoint {
    case products(page: Int)
    case product(id: String)
    case buy(id: String)

    var path: String {
        switch self {
        case .products: "products"
        case .product(let id), .buy(let id): "products/\(pathSegment: id)"
        }
    }

    var method: HTTPMethod {
        if case .buy = self { .post } else { .get }
    }

    var query: [String: String] {
        if case .products(let page) = self { ["page": String(page)] } else { [:] }
    }
}

final class DummyEndpointTests: XCTestCase {
    private let network = DummyNetworkLayer(
        environment: APIEnvironment(
            baseURL: URL(string: "https://shop.example.com/v2")!, headers: ["X-Shop": "1"]))

    func testStubByEndpointAnswersSynchronouslyAndRecordsTheEndpoint() {
        network.stub(ShopAPI.product(id: "a/b"), returning: ["name": "Lamp"])
        var received: [String: String]?
        network.request(
            ShopAPI.product(id: "a/b"), successHandler: { (product: [String: String]) in received = product },
            errorHandler: { XCTFail("\($0)") })
        XCTAssertEqual(received, ["name": "Lamp"])
        XCTAssertEqual(
            network.recordedRequests.first?.url.absoluteString, "https://shop.example.com/v2/products/a%2Fb")
        XCTAssertEqual(network.recordedRequests.first?.header("X-Shop"), "1")
        guard case .product(let id)? = network.recordedEndpoints.first as? ShopAPI else {
            return XCTFail("recorded \(network.recordedEndpoints)")
        }
        XCTAssertEqual(id, "a/b")
        XCTAssertEqual(network.callCount(ShopAPI.product(id: "a/b")), 1)
        XCTAssertEqual(network.callCount(ShopAPI.product(id: "other")), 0)
    }

    func testEndpointQueriesAreMatched() {
        network.stub(ShopAPI.products(page: 2), returning: ["page two"])
        network.stub(ShopAPI.products(page: 1), failingWith: "no page one")
        var answers: [String] = []
        for page in [1, 2] {
            network.request(
                ShopAPI.products(page: page), successHandler: { (items: [String]) in answers += items },
                errorHandler: { answers.append($0.message) })
        }
        XCTAssertEqual(answers, ["no page one", "page two"])
    }

    func testVoidFormAndOutcomes() {
        network.stub(ShopAPI.buy(id: "7"), outcomes: [.failure("sold out"), .success(EmptyResponse())])
        var results: [String] = []
        for _ in 0..<3 {
            network.request(
                ShopAPI.buy(id: "7"), successHandler: { results.append("bought") },
                errorHandler: { results.append($0.message) })
        }
        XCTAssertEqual(results, ["sold out", "bought", "bought"])
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post, .post, .post])
    }

    func testAnEndpointTheRealLayerRefusesIsRefusedHereToo() {
        struct Escaping: Endpoint {
            var path: String { "//evil.example.com/steal" }
            var method: HTTPMethod { .get }
        }
        var error: NetworkError?
        network.request(
            Escaping(), successHandler: { (_: [String]) in XCTFail("succeeded") },
            errorHandler: { error = $0 })
        guard case .invalidURL? = error else { return XCTFail("gave \(String(describing: error))") }
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(network.refusedRequests.count, 1)
        XCTAssertEqual(network.recordedEndpoints.count, 1)
        network.reset()
        XCTAssertTrue(network.recordedEndpoints.isEmpty)
    }
}
