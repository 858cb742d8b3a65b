import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("HAR replay rewrites the recorded origin")
struct HAROriginRewriteSuite {
    @Test("A replayed rel=next link points at the MockServer")
    func nextLink() async throws {
        let server = MockServer(replaying: try paginatedRecording())
        try server.start()
        defer { server.stop() }
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 10)
        let first = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
        let next = try #require(first.links["next"])
        #expect(next.host == "127.0.0.1")
        #expect(next.port == server.port)
        let second = try await network.send(NetworkRequest<[Todo]>(urlString: next.absoluteString))
        #expect(second.value.map(\.id) == [2])
    }
}
