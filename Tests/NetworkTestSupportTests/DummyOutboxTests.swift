import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// An outbox over the dummy: its items go out as raw `Data` requests, so a stub gives bytes, and a typed
/// stub makes a dead letter whose message says so.
final class DummyOutboxTests: XCTestCase {
    private struct Message: Codable, Equatable { let text: String }

    private func deadLetter(after stub: (DummyNetworkLayer) -> Void) -> OutboxError? {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        stub(network)
        let outbox = Outbox.inMemory(layer: network)
        let settled = expectation(description: "settled")
        let result = Locked<OutboxError?>(nil)
        let observation = outbox.addObserver(on: DispatchQueue(label: "test.events")) { event in
            switch event {
            case .deadLettered(_, let error):
                result.withLock { $0 = error }
                settled.fulfill()
            case .delivered: settled.fulfill()
            default: break
            }
        }
        XCTAssertNoThrow(
            try outbox.enqueue(
                OutboxRequest(.post, "messages", body: .json(Message(text: "hi")), kind: "m", account: .any)))
        wait(for: [settled], timeout: 5)
        _ = observation
        return result.withLock { $0 }
    }

    func testATypedStubMakesADeadLetterSayingToStubBytes() {
        let error = deadLetter { $0.stub(.post, "messages", returning: Message(text: "ok")) }
        let message = error?.message ?? "delivered"
        XCTAssertTrue(message.contains("expects Data"), message)
        XCTAssertTrue(message.contains("returned Message"), message)
        XCTAssertTrue(
            message.contains("An Outbox's items (and any Data request) take the reply's bytes"), message)
    }

    func testAStubOfBytesDelivers() {
        XCTAssertNil(deadLetter { $0.stub(.post, "messages", returning: Data("{}".utf8)) })
    }
}
