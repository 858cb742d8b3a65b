import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A stale reply from the cache keeps its status and headers: a feed whose `Link` header says there is
/// a next page keeps its "Load more" button offline.
final class DummyStaleReplyTests: XCTestCase {
    private let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
    private let nextPage = "<https://api.example.com/items?page=2>; rel=\"next\""

    /// What a feed presenter shows from one page.
    private struct FeedScreen {
        var items: [String] = []
        var offlineBanner = false
        var canLoadMore = false
        var statusCode: Int?
    }

    /// The presenter's reading of a page's reply.
    private func load(_ path: String = "items") -> FeedScreen {
        var screen = FeedScreen()
        network.send(
            NetworkRequest<[String]>(urlString: path),
            successHandler: { response in
                screen.items = response.value
                screen.offlineBanner = response.cacheStatus.staleError != nil
                screen.canLoadMore = response.headers["Link"]?.contains("rel=\"next\"") == true
                screen.statusCode = response.statusCode
            },
            errorHandler: { XCTFail("\($0)") })
        return screen
    }

    func testLoadMoreStaysAvailableOffline() {
        network.stub(
            .get, "items", returning: ["saved"], cacheStatus: .stale(.timedOut), statusCode: 203,
            headers: ["Link": nextPage])

        let screen = load()

        XCTAssertEqual(screen.items, ["saved"])
        XCTAssertTrue(screen.offlineBanner)
        XCTAssertTrue(screen.canLoadMore, "the stale reply kept its Link header")
        XCTAssertEqual(screen.statusCode, 203)
    }

    func testACachedOutcomeCarriesItsHeadersInASequence() {
        network.stub(
            .get, "items",
            outcomes: [
                .response(["fresh"], statusCode: 200, headers: ["Link": nextPage]),
                .cached(["saved"], cacheStatus: .stale(.timedOut), headers: ["Link": nextPage]),
            ])

        let online = load()
        let offline = load()

        XCTAssertTrue(online.canLoadMore)
        XCTAssertFalse(online.offlineBanner)
        XCTAssertTrue(offline.canLoadMore)
        XCTAssertTrue(offline.offlineBanner)
        XCTAssertEqual(offline.statusCode, 200, "the default status")
    }

    func testACachedStubWithoutHeadersStillReadsAsBefore() {
        network.stub(.get, "items", returning: ["saved"], cacheStatus: .hit)
        let screen = load()
        XCTAssertEqual(screen.items, ["saved"])
        XCTAssertFalse(screen.canLoadMore)
        XCTAssertEqual(screen.statusCode, 200)
    }

    func testAnEndpointStubCarriesAStaleReplysHeaders() {
        network.stub(
            FeedEndpoint(), returning: ["saved"], cacheStatus: .stale(.timedOut), headers: ["Link": nextPage])
        network.stub(FeedEndpoint(page: 2), returning: ["last"], statusCode: 206, headers: ["X-Page": "2"])
        XCTAssertTrue(load().canLoadMore)
        XCTAssertEqual(load("items?page=2").statusCode, 206)
    }

    func testAHeldRequestIsReleasedWithAStaleReplysHeaders() throws {
        network.holdsReplies = true
        var screen: FeedScreen?
        network.send(
            NetworkRequest<[String]>(urlString: "items"),
            successHandler: { response in
                screen = FeedScreen(
                    items: response.value, offlineBanner: response.cacheStatus.staleError != nil,
                    canLoadMore: response.headers["Link"] != nil, statusCode: response.statusCode)
            },
            errorHandler: { XCTFail("\($0)") })

        try XCTUnwrap(network.pendingRequests.first).respond(
            with: .cached(
                ["saved"], cacheStatus: .stale(.timedOut), statusCode: 200, headers: ["Link": nextPage]))

        XCTAssertEqual(screen?.items, ["saved"])
        XCTAssertEqual(screen?.offlineBanner, true)
        XCTAssertEqual(screen?.canLoadMore, true)
    }

    func testAHeldRequestReleasedWithAStatusOutside2xxFailsAsTheRealLayerDoes() throws {
        network.holdsReplies = true
        let got = Captured<[String]>()
        network.get(urlString: "items", successHandler: got.success, errorHandler: got.failure)
        try XCTUnwrap(network.pendingRequests.first).respond(
            with: .response(Data("busy".utf8), statusCode: 503, headers: ["Retry-After": "5"]))
        XCTAssertEqual(got.errors.first?.statusCode, 503)
    }
}

/// One page of the feed.
private struct FeedEndpoint: Endpoint {
    var page = 1
    var path: String { "items" }
    var method: HTTPMethod { .get }
    var query: [String: String] { page == 1 ? [:] : ["page": "\(page)"] }
}
