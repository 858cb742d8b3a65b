import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The Swift samples of the NetworkLayer catalog's "Endpoints and environments" article that no other
// file of this target holds, verbatim, so they keep compiling; `PostsAPI` is in
// ReadmeEndpointExamples.swift. `ReadmeSyncTests` fails when a sample in an article no longer appears in
// a compiled file.

func loadFirstPage(using network: NetworkLayer) async throws(NetworkError) -> [Post] {
    let posts: [Post] = try await network.request(PostsAPI.list(page: 1))
    if let stale = posts.first(where: { $0.title.isEmpty }) {
        try await network.requestIgnoringReply(PostsAPI.delete(id: stale.id))
    }
    return posts
}

/// The sample runs: it loads the first page, and deletes the post without a title.
final class EndpointsArticleTests: XCTestCase {
    func testTheFirstPageIsLoadedAndTheUntitledPostDeleted() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com/v1/"))
        network.stub(
            PostsAPI.list(page: 1), returning: [Post(id: "1", title: "Hello"), Post(id: "2", title: "")])

        let posts = try await loadFirstPage(using: network)

        XCTAssertEqual(posts.map(\.id), ["1", "2"])
        XCTAssertEqual(
            network.recordedRequests.map { "\($0.method.rawValue) \($0.url.absoluteString)" },
            ["GET https://api.example.com/v1/posts?page=1", "DELETE https://api.example.com/v1/posts/2"])
    }
}
