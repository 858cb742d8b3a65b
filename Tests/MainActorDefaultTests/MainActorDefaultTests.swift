import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

// This target is compiled with `-default-isolation MainActor` (Swift 6.2's "approachable concurrency"
// default for app targets): every declaration below is on the main actor unless it says otherwise. The
// async forms must compile here without warnings too.

/// A model the layer decodes must be `nonisolated` here: the layer decodes off the main actor, so a
/// main-actor-isolated `Decodable` conformance (what this module would infer) is refused at compile time
/// by the `SendableMetatype` requirement, for the handler forms as for the async ones.
nonisolated struct Item: Codable, Equatable {
    let id: Int
}

/// A model class, main-actor isolated by default, that keeps its request in a property.
final class ItemsModel {
    let network: NetworkLayer
    var request = NetworkRequest<[Item]>(urlString: "https://api.example.com/items")
    private(set) var items: [Item] = []

    init(network: NetworkLayer) {
        self.network = network
    }

    func load() async throws(NetworkError) {
        items = try await network.send(request).value
        let more: [Item] = try await network.get(urlString: "https://api.example.com/items/more")
        items += more
        try await network.postIgnoringReply(urlString: "https://api.example.com/items/seen", body: items)
    }
}

/// The same from code that opted out of the default.
nonisolated func countItems(_ network: NetworkLayer) async throws(NetworkError) -> Int {
    let items: [Item] = try await network.get(urlString: "https://api.example.com/items")
    return items.count
}

@Suite("A MainActor-default module")
struct MainActorDefaultTests {
    @Test("The async forms compile and run from main-actor-by-default code")
    func asyncForms() async throws {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/items", returning: [Item(id: 1)])
        network.stub(.get, "https://api.example.com/items/more", returning: [Item(id: 2)])
        let model = ItemsModel(network: network)
        try await model.load()
        #expect(model.items == [Item(id: 1), Item(id: 2)])
        #expect(try await countItems(network) == 1)
        #expect(network.recordedRequests.map(\.method) == [.get, .get, .post, .get])
    }

    @Test("The real pipeline resumes main-actor code, and handler forms compile too")
    func realPipeline() async throws {
        let stubs = StubTransport()
        stubs.stub(nil, .any, with: .json([Item(id: 3)]))
        let network = stubs.makeNetworkLayer()
        let model = ItemsModel(network: network)
        try await model.load()
        #expect(model.items == [Item(id: 3), Item(id: 3)])
        let viaHandlers = await withCheckedContinuation { continuation in
            network.get(
                urlString: "https://api.example.com/items",
                successHandler: { (items: [Item]) in continuation.resume(returning: items.count) },
                errorHandler: { _ in continuation.resume(returning: -1) })
        }
        #expect(viaHandlers == 1)
    }
}
