import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The Swift samples of the NetworkLayer catalog's "Offline outbox" article
// (Sources/NetworkLayer/NetworkLayer.docc/OfflineOutbox.md), verbatim, so they keep compiling.

enum OutboxSnippets {
    static func makeOutbox(network: NetworkLayer) throws -> Outbox {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        return try Outbox(directory: support, name: "messages", layer: network)
    }
}

protocol ComposeView: AnyObject {
    func showWaiting(_ count: Int)
    func showSent()
    func showRejected(_ message: String)
}

final class ComposePresenter {
    private let outbox: Outbox
    private let userID: String
    private var observation: OutboxObservation?
    weak var view: ComposeView?

    init(view: ComposeView, outbox: Outbox, userID: String) {
        self.view = view
        self.outbox = outbox
        self.userID = userID
        observation = outbox.addObserver { [weak self] event in
            switch event {
            case .count(let waiting, _):
                self?.view?.showWaiting(waiting)  // "3 changes waiting to sync"
            case .delivered(let item, _) where item.kind == "message.send":
                self?.view?.showSent()
            case .deadLettered(let item, let error) where item.kind == "message.send":
                self?.view?.showRejected(error.message)
            default:
                break
            }
        }
    }

    func send(_ text: String) {
        do {
            try outbox.enqueue(
                OutboxRequest(
                    .post, "messages", body: .json(["text": text]), kind: "message.send", account: userID))
        } catch {
            view?.showRejected(error.message)  // a full disk: nothing was stored
        }
    }
}

final class ComposePresenterTests: XCTestCase {
    private let api = URL(string: "https://api.example.com")
    final class SpyComposeView: ComposeView {
        var waiting: [Int] = []
        var sent = 0
        var rejected: [String] = []
        var changed: (() -> Void)?
        func showWaiting(_ count: Int) {
            waiting.append(count)
            changed?()
        }
        func showSent() {
            sent += 1
            changed?()
        }
        func showRejected(_ message: String) {
            rejected.append(message)
            changed?()
        }
    }

    func testOfflineTheMessageWaits() {
        let network = DummyNetworkLayer(baseURL: api, clock: TestClock())  // waits don't pass by themselves
        network.stub(.post, "messages", failingWith: .transport(URLError(.notConnectedToInternet)))
        network.account = "alice"  // signed in as the presenter's user: alice's items go out
        let view = SpyComposeView()
        let presenter = ComposePresenter(view: view, outbox: Outbox.inMemory(layer: network), userID: "alice")
        let queued = expectation(description: "shows one waiting")
        view.changed = { if view.waiting.last == 1 { queued.fulfill() } }

        presenter.send("Hello from the tunnel")

        wait(for: [queued], timeout: 5)
        XCTAssertEqual(view.sent, 0)
        XCTAssertEqual(view.rejected, [])
    }

    func testOnlineTheMessageIsSent() {
        let network = DummyNetworkLayer(baseURL: api)
        network.stub(.post, "messages", returning: Data(), statusCode: 201)
        network.account = "alice"  // signed in as the presenter's user: alice's items go out
        let view = SpyComposeView()
        let presenter = ComposePresenter(view: view, outbox: Outbox.inMemory(layer: network), userID: "alice")
        let sent = expectation(description: "shows sent, nothing waiting")
        view.changed = { if view.sent == 1 && view.waiting.last == 0 { sent.fulfill() } }

        presenter.send("Hello")

        wait(for: [sent], timeout: 5)
        XCTAssertEqual(network.recordedRequests.first?.header("Idempotency-Key")?.count, 36)
    }

    func testARejectedMessageShowsTheError() {
        let network = DummyNetworkLayer(baseURL: api)
        network.stub(.post, "messages", returning: Data("{\"error\":\"too long\"}".utf8), statusCode: 422)
        network.account = "alice"  // signed in as the presenter's user: alice's items go out
        let view = SpyComposeView()
        let presenter = ComposePresenter(view: view, outbox: Outbox.inMemory(layer: network), userID: "alice")
        let rejected = expectation(description: "shows the error")
        view.changed = { if !view.rejected.isEmpty { rejected.fulfill() } }

        presenter.send(String(repeating: "a", count: 10_000))

        wait(for: [rejected], timeout: 5)
        XCTAssertEqual(view.sent, 0)
    }
}
