import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A layer from `makeNetworkLayer` keeps its `StubTransport`: `StubTransport().makeNetworkLayer()` is
/// answered by the stubs after the test's last reference to the transport is gone.
final class StubTransportLifetimeTests: XCTestCase {
    private let feedEvents = [ServerSentEvent(data: "one"), ServerSentEvent(data: "two")]

    /// A layer whose transport the test no longer references; `transport` becomes `nil` if the layer
    /// lets it go.
    private func layerOnAReleasedTransport(_ transport: inout StubTransport?) -> NetworkLayer {
        var stubs: StubTransport? = StubTransport()
        stubs?.stub(.get, "https://api.example.com/kept", with: .json(["kept"]))
        stubs?.stub(
            .get, "https://api.example.com/feed",
            with: StubResponse(
                headers: ["Content-Type": "text/event-stream"], body: Data.eventStream(feedEvents)))
        let network = stubs!.makeNetworkLayer(callbackQueue: DispatchQueue(label: "lifetime"))
        transport = stubs
        stubs = nil
        return network
    }

    func testALayerKeepsItsTransportAndItsStubsAnswer() async throws {
        weak var released: StubTransport?
        var transport: StubTransport?
        let network = layerOnAReleasedTransport(&transport)
        released = transport
        transport = nil
        XCTAssertNotNil(released, "the layer keeps its transport")

        let value: [String] = try await network.get(urlString: "https://api.example.com/kept")

        XCTAssertEqual(value, ["kept"])
        XCTAssertEqual(released?.recordedRequests.map(\.url.path), ["/kept"])
    }

    func testALayersStreamsAreAnsweredByTheTransportItKeeps() async throws {
        var transport: StubTransport?
        let network = layerOnAReleasedTransport(&transport)
        transport = nil

        var received: [ServerSentEvent] = []
        let stream = network.stream(
            NetworkRequest(urlString: "https://api.example.com/feed"), as: .serverSentEvents,
            options: ServerSentEventsOptions(reconnects: false))
        for try await event in stream { received.append(event) }

        XCTAssertEqual(received.map(\.data), ["one", "two"])
    }

    func testTheTransportGoesAwayWithItsLastLayer() {
        weak var released: StubTransport?
        do {
            var transport: StubTransport?
            let network = layerOnAReleasedTransport(&transport)
            released = transport
            transport = nil
            XCTAssertNotNil(released)
            _ = network
        }
        XCTAssertNil(released, "nothing but the layer kept the transport")
    }
}
