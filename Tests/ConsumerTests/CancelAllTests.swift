import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A screen that cancels whatever it started when the user signs out.
final class SignOutPresenter {
    private let networkLayer: NetworkLayer
    private(set) var errors: [NetworkError] = []
    private(set) var todos: [[Todo]] = []

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/todos",
            successHandler: { (todos: [Todo]) in self.todos.append(todos) },
            errorHandler: { error in self.errors.append(error) })
    }

    func signOut() {
        networkLayer.cancelAll()
    }
}

/// `cancelAll()` on `DummyNetworkLayer`, as a presenter test uses it.
final class CancelAllConsumerTests: XCTestCase {
    func testSignOutCancelsEveryHeldRequestExactlyOnce() {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let presenter = SignOutPresenter(networkLayer: network)
        presenter.load()
        presenter.load()
        XCTAssertEqual(
            network.pendingRequests.count, 1, "the identical second load shares the first's request")

        presenter.signOut()

        XCTAssertEqual(presenter.errors.map(\.description), ["cancelled", "cancelled"])
        XCTAssertTrue(presenter.todos.isEmpty)
        XCTAssertTrue(network.pendingRequests.isEmpty)
        XCTAssertEqual(network.cancelledRequests.count, 2)
        presenter.signOut()
        XCTAssertEqual(presenter.errors.count, 2, "a second cancelAll() finds nothing")
    }

    func testRequestsAlreadyAnsweredAreNotCancelled() {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 1, title: "Done")]
        let presenter = SignOutPresenter(networkLayer: network)
        presenter.load()
        presenter.signOut()
        XCTAssertEqual(presenter.todos, [[Todo(id: 1, title: "Done")]])
        XCTAssertTrue(presenter.errors.isEmpty)
        XCTAssertTrue(network.cancelledRequests.isEmpty)
    }
}
