// The Swift samples of NetworkTestSupport's "Testing presenters" article, section "Async presenters",
// exactly as printed there (see ReadmeSyncTests). `TodoScreenModel` is in ReadmeLoadingExamples.swift.

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@MainActor
final class TodoScreenModelLoadingTests: XCTestCase {
    func testTheTodosAppearWhenTheReplyArrives() async throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let model = TodoScreenModel(networkLayer: network)
        let loading = Task { await model.load() }

        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)
        XCTAssertTrue(model.todos.isEmpty)  // still loading

        held.succeed(with: [Todo(id: 1, title: "Write tests")])
        await loading.value
        XCTAssertEqual(model.todos, [Todo(id: 1, title: "Write tests")])
    }
}

/// A chat answer read with `for try await`, for the article's `waitUntilConsumed()` sample.
@MainActor
private final class AnswerModel {
    private let network: NetworkLayer
    private(set) var answer = ""

    init(network: NetworkLayer) {
        self.network = network
    }

    func ask() async {
        let request = NetworkRequest<Data>(urlString: "https://api.example.com/chat")
        let stream = network.stream(request, as: .serverSentEvents)
        do {
            for try await event in stream { answer += event.data }
        } catch {
            answer += " (failed)"
        }
    }
}

@MainActor
final class AnswerModelConsumptionTests: XCTestCase {
    func testAPushedEventIsShownOnceConsumed() async throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let model = AnswerModel(network: network)
        let asking = Task { await model.ask() }
        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)

        held.push(ServerSentEvent(data: "Hel"))
        await held.waitUntilConsumed()
        XCTAssertEqual(model.answer, "Hel")

        held.finishStream()
        await asking.value
    }
}
