import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

private struct Item: Codable, Equatable {
    let n: Int
}

/// A presenter that keeps its task, as one that cancels on dismissal does.
private final class KeepingPresenter {
    var task: NetworkTask?
    let network: NetworkLayer

    init(_ network: NetworkLayer) { self.network = network }

    func load() {
        task = network.get(
            urlString: "https://api.example.com/items", successHandler: { (_: [Item]) in _ = self },
            errorHandler: { _ in _ = self })
    }
}

private enum RefusedAPI: Endpoint {
    case absolute, relative
    var path: String { self == .absolute ? "https://evil.example.com/people" : "people" }
    var method: HTTPMethod { .get }
}

/// Regressions found in review of DummyNetworkLayer: each test fails if its fix is undone.
final class DummyReviewRegressionTests: XCTestCase {
    func testAKeptTaskDoesNotKeepItsHandlersAlive() {
        for queue in [nil, DispatchQueue(label: "delivery")] {
            weak var weakPresenter: KeepingPresenter?
            let delivered = expectation(description: "delivered")
            do {
                let network = DummyNetworkLayer(deliveryQueue: queue)
                network.errorResponse = "offline"
                let presenter = KeepingPresenter(network)
                weakPresenter = presenter
                presenter.load()
                (queue ?? .main).async { delivered.fulfill() }
            }
            wait(for: [delivered], timeout: 5)
            XCTAssertNil(weakPresenter, "retained with deliveryQueue \(queue?.label ?? "nil")")
        }
    }

    func testStubsForEndpointsTheRealLayerRefusesMatchNothing() {
        let network = DummyNetworkLayer()
        network.stub(RefusedAPI.absolute, returning: [Item(n: 9)])
        network.stub(RefusedAPI.relative, returning: [Item(n: 7)])
        var answers: [String] = []
        for url in ["https://evil.example.com/people", "https://other.example.com/people"] {
            network.get(
                urlString: url, successHandler: { (items: [Item]) in answers.append("\(items)") },
                errorHandler: { _ in answers.append("error") })
        }
        XCTAssertEqual(answers, ["error", "error"])
        XCTAssertEqual(network.callCount(RefusedAPI.absolute), 0)
        XCTAssertEqual(network.callCount(RefusedAPI.relative), 0)
    }
}
