import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

/// The `…IgnoringReply` forms in Swift Testing: the reply is dropped only when the name says so.
@Suite("Reply forms")
struct ReplyFormSuite {
    @Test("An endpoint's reply is ignored only by requestIgnoringReply")
    func endpointForms() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com/"))
        network.successResponse = [Note(id: 1, text: "one")]
        let notes: [Note] = try await network.request(NotesAPI.list)
        try await expectResult(of: { try await network.requestIgnoringReply(NotesAPI.clear) }, is: Void.self)
        #expect(notes.map(\.text) == ["one"])
        #expect(network.recordedRequests.map(\.method) == [.get, .delete])
    }
}
