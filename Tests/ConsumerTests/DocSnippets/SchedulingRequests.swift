// The Swift samples of the "Sharing a server" article (SchedulingRequests.md), exactly as printed there
// (see ReadmeSyncTests), run as tests.

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

struct Member: Codable, Equatable {
    let name: String
}

final class ProfileBadgePresenter {
    private let networkLayer: NetworkLayer
    private(set) var name: String?

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/me",
            successHandler: { [weak self] (user: Member) in self?.name = user.name },
            errorHandler: { _ in })
    }
}

final class GalleryPresenter {
    private let networkLayer: NetworkLayer
    private(set) var opened: Data?

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func prefetch(_ ids: [Int]) {
        for id in ids {
            var thumbnail = NetworkRequest<Data>(urlString: "https://api.example.com/thumbnails/\(id)")
            thumbnail.priority = .prefetch
            networkLayer.send(thumbnail, successHandler: { _ in }, errorHandler: { _ in })
        }
    }

    func open(_ id: Int) {
        var photo = NetworkRequest<Data>(urlString: "https://api.example.com/photos/\(id)")
        photo.priority = .userInitiated
        networkLayer.send(
            photo, successHandler: { [weak self] in self?.opened = $0.value }, errorHandler: { _ in })
    }
}

/// Shows the feed's posts, or keeps the error.
final class FeedPresenter {
    private let networkLayer: NetworkLayer
    private(set) var posts: [String]?
    private(set) var error: NetworkError?

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/feed",
            successHandler: { [weak self] (posts: [String]) in self?.posts = posts },
            errorHandler: { [weak self] in self?.error = $0 })
    }
}

final class SchedulingRequestsArticleTests: XCTestCase {
    func testTheLayersSchedulingAndARequestsOwn() {
        let network = NetworkLayer(
            baseURL: URL(string: "https://api.example.com"),
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 4))
        var upload = NetworkRequest<EmptyResponse>(urlString: "status")
        upload.scheduling = .disabled  // alone, whatever the layer does
        XCTAssertEqual(network.scheduling.maximumRequestsPerOrigin, 4)
        XCTAssertEqual(upload.scheduling, .disabled)
    }

    func testThreePresentersMakeOneRequest() {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let badges = (0..<3).map { _ in ProfileBadgePresenter(networkLayer: network) }
        for badge in badges { badge.load() }
        XCTAssertEqual(network.pendingRequests.count, 1)

        network.pendingRequests[0].succeed(with: Member(name: "Ann"))
        XCTAssertEqual(badges.map(\.name), ["Ann", "Ann", "Ann"])
    }

    func testTheTapGoesBeforeThePrefetchesStillWaiting() {
        let network = DummyNetworkLayer(scheduling: RequestScheduling(maximumRequestsPerOrigin: 1))
        network.holdsReplies = true
        let gallery = GalleryPresenter(networkLayer: network)
        gallery.prefetch([1, 2, 3])
        gallery.open(9)

        while let held = network.pendingRequests.first {
            held.succeed(with: Data())
        }
        XCTAssertEqual(
            network.recordedRequests.map(\.url.path),
            ["/thumbnails/1", "/photos/9", "/thumbnails/2", "/thumbnails/3"])
    }

    func testTheFeedWaitsForTheServersPause() {
        let clock = TestClock()
        let network = DummyNetworkLayer(clock: clock)
        network.stub(
            .get, "https://api.example.com/feed",
            outcomes: [
                .response(Data(), statusCode: 429, headers: ["Retry-After": "2"]),
                .success(["Ann's post"]),
            ])
        let feed = FeedPresenter(networkLayer: network)
        feed.load()
        XCTAssertEqual(feed.error?.statusCode, 429)

        feed.load()  // held: the server asked for 2 s
        XCTAssertNil(feed.posts)
        clock.advance(by: 2)
        XCTAssertEqual(feed.posts, ["Ann's post"])
    }

    func testTheAppLiftsAHoldItKnowsIsOver() {
        let network = DummyNetworkLayer(clock: TestClock())
        network.stub(
            .get, "https://api.example.com/feed",
            outcomes: [
                .response(Data(), statusCode: 429, headers: ["Retry-After": "86400"]),
                .success(["Ann's post"]),
            ])
        let feed = FeedPresenter(networkLayer: network)
        feed.load()  // holds the origin for an hour, the layer's ceiling
        XCTAssertEqual(feed.error?.statusCode, 429)

        network.liftRateLimit(for: URL(string: "https://api.example.com")!)
        feed.load()
        XCTAssertEqual(feed.posts, ["Ann's post"])
    }
}
