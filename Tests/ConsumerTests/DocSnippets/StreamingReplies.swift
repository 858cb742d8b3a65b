import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The Swift samples of the NetworkLayer catalog's "Streaming replies" article
// (Sources/NetworkLayer/NetworkLayer.docc/StreamingReplies.md), verbatim, so they keep compiling.

protocol ChatView: AnyObject {
    func showTyping(_ typing: Bool)
    func show(_ transcript: String)
    func showError(_ message: String)
}

final class ChatPresenter {
    private let networkLayer: NetworkLayer
    private weak var view: ChatView?
    private var transcript = ""
    private var streaming: NetworkTask?

    init(networkLayer: NetworkLayer, view: ChatView) {
        self.networkLayer = networkLayer
        self.view = view
    }

    func ask(_ question: String) {
        let request = NetworkRequest<Data>(
            method: .post, urlString: "chat", body: .json(["question": question]))
        transcript = ""
        view?.showTyping(true)
        streaming = networkLayer.stream(request, as: .serverSentEvents) { [weak self] event in
            guard let self else { return }
            transcript += event.data
            view?.show(transcript)
        } completionHandler: { [weak self] result in
            self?.view?.showTyping(false)
            switch result {
            case .success, .failure(.cancelled): break
            case .failure(let error): self?.view?.showError(error.message)
            }
        }
    }

    func stop() {
        streaming?.cancel()
    }
}

@MainActor
final class AsyncChatModel {
    private let networkLayer: NetworkLayer
    private(set) var transcript = ""
    private(set) var isTyping = false

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func ask(_ question: String) async {
        let request = NetworkRequest<Data>(
            method: .post, urlString: "chat", body: .json(["question": question]))
        isTyping = true
        defer { isTyping = false }
        do {
            for try await event in networkLayer.stream(request, as: .serverSentEvents) {
                transcript += event.data
            }
        } catch {
            transcript += "\n(\(error.message))"
        }
    }
}

enum StreamingSnippets {
    struct LogLine: Decodable, Sendable {
        let level: String
        let message: String
    }

    static func follow(_ network: NetworkLayer) {
        network.stream(NetworkRequest(urlString: "logs/export"), as: .jsonLines(LogLine.self)) { line in
            print(line.level, line.message)
        } completionHandler: { result in
            print(result)
        }
    }

    struct Comment: Decodable, Sendable {
        var author: String
        var text: String
    }

    static func comments(_ network: NetworkLayer) async throws -> [Comment] {
        var comments: [Comment] = []
        let format = StreamFormat.serverSentEvents(decoding: Comment.self, eventTypes: ["comment"])
        for try await comment in network.stream(NetworkRequest(urlString: "posts/7/comments"), as: format) {
            comments.append(comment)
        }
        return comments
    }

    /// A layer with a session of its own, for a stream that may go unread for long.
    static func ownSession(_ api: URL) -> NetworkLayer {
        let feed = NetworkLayer(baseURL: api, sessionConfiguration: .default)
        return feed
    }

    static func liveFeed(_ network: NetworkLayer) -> NetworkTask {
        var request = NetworkRequest<Data>(urlString: "live")
        request.streamOptions = ServerSentEventsOptions(maximumReconnects: 10, idleTimeout: 45)
        return network.stream(request, as: .serverSentEvents) { event in
            print(event.event, event.data, event.id ?? "-")
        } completionHandler: { result in
            print(result)
        }
    }
}

final class RecordingChatView: ChatView {
    var typing: [Bool] = []
    var transcripts: [String] = []
    var errors: [String] = []

    func showTyping(_ typing: Bool) { self.typing.append(typing) }
    func show(_ transcript: String) { transcripts.append(transcript) }
    func showError(_ message: String) { errors.append(message) }
}

final class ChatPresenterTests: XCTestCase {
    func testTheAnswerAppearsWordByWord() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.holdsReplies = true
        let view = RecordingChatView()
        let presenter = ChatPresenter(networkLayer: network, view: view)

        presenter.ask("Hi?")
        XCTAssertEqual(view.typing, [true])

        let stream = try XCTUnwrap(network.pendingRequests.first)
        stream.push(ServerSentEvent(data: "Hello"))
        XCTAssertEqual(view.transcripts, ["Hello"])
        stream.push(ServerSentEvent(data: ", world"))
        XCTAssertEqual(view.transcripts, ["Hello", "Hello, world"])

        stream.finishStream()
        XCTAssertEqual(view.typing, [true, false])
        XCTAssertEqual(view.errors, [])
    }

    func testAScriptedAnswerArrivesAtOnce() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = Data.eventStream([ServerSentEvent(data: "Hi"), ServerSentEvent(data: "!")])
        let view = RecordingChatView()

        let presenter = ChatPresenter(networkLayer: network, view: view)
        presenter.ask("Hi?")

        XCTAssertEqual(view.transcripts, ["Hi", "Hi!"])
        XCTAssertEqual(view.typing, [true, false])
    }

    func testStoppingShowsNoError() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.holdsReplies = true
        let view = RecordingChatView()
        let presenter = ChatPresenter(networkLayer: network, view: view)

        presenter.ask("Hi?")
        presenter.stop()

        XCTAssertEqual(view.typing, [true, false])
        XCTAssertEqual(view.errors, [])
    }

    @MainActor
    func testTheAsyncModelCollectsTheWholeAnswer() async {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = Data.eventStream([
            ServerSentEvent(data: "Hel"), ServerSentEvent(data: "lo"),
        ])
        let model = AsyncChatModel(networkLayer: network)

        await model.ask("Hi?")

        XCTAssertEqual(model.transcript, "Hello")
        XCTAssertFalse(model.isTyping)
    }
}
