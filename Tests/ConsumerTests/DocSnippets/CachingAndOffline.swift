import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The Swift samples of the NetworkLayer catalog's "Caching and offline" article
// (Sources/NetworkLayer/NetworkLayer.docc/CachingAndOffline.md), verbatim, so they keep compiling.

enum CachingSnippets {
    static func makeLayer() -> NetworkLayer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
        let cache = ResponseCache(memoryCapacity: 4_000_000, diskCapacity: 50_000_000, directory: directory)
        return NetworkLayer(baseURL: URL(string: "https://api.example.com")!, cache: cache)
    }

    static func reload(on network: NetworkLayer) {
        var request = NetworkRequest<[Todo]>(urlString: "todos")
        request.cachePolicy = .reloadIgnoringCache
        network.send(request) { result in print(result) }
    }

    static func signOut(of network: NetworkLayer) {
        network.cache?.removeAll()
    }
}

protocol TodosView: AnyObject {
    func show(_ todos: [Todo])
    func showOfflineBanner(_ visible: Bool)
    func showError(_ message: String)
}

final class TodosPresenter {
    let network: NetworkLayer
    weak var view: TodosView?

    init(view: TodosView, network: NetworkLayer) {
        self.view = view
        self.network = network
    }

    func load() {
        var request = NetworkRequest<[Todo]>(urlString: "todos")
        request.cachePolicy = .useCacheOnFailure
        network.send(
            request,
            successHandler: { response in
                self.view?.show(response.value)
                // Served from the cache because the network failed: say so.
                self.view?.showOfflineBanner(response.cacheStatus.staleError != nil)
            },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}

final class TodosPresenterTests: XCTestCase {
    final class SpyTodosView: TodosView {
        var shown: [Todo]?
        var bannerVisible = false
        func show(_ todos: [Todo]) { shown = todos }
        func showOfflineBanner(_ visible: Bool) { bannerVisible = visible }
        func showError(_ message: String) {}
    }

    func testOfflineShowsTheSavedListWithABanner() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com")!)
        let view = SpyTodosView()
        let saved = [Todo(id: 1, title: "Buy milk")]
        network.stub(.get, "todos", returning: saved, cacheStatus: .stale(.timedOut))

        TodosPresenter(view: view, network: network).load()

        XCTAssertEqual(view.shown, saved)
        XCTAssertTrue(view.bannerVisible)
    }

    func testTheSecondLoadIsInstant() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.handler = { _ in try MockResponse.json(["ok"]).cacheControl("max-age=60") }
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: .global())
        for _ in 0..<2 {
            let done = expectation(description: "loaded")
            network.get(
                urlString: "todos", successHandler: { (_: [String]) in done.fulfill() },
                errorHandler: { _ in })
            wait(for: [done], timeout: 10)
        }
        XCTAssertEqual(server.requestCount(forPath: "/todos"), 1)
    }
}

// Partitions by account, the key outside the directory, flushing, and a refresh that fails offline.

/// Where an app keeps the cache's fingerprint key: the Keychain in an app.
struct CachingKeychain {
    func cacheKey() -> Data { Data(repeating: 0x5A, count: 32) }
}

/// What an app saved at sign-in.
struct CachingSavedSession: Sendable {
    var token: BearerTokenAuthenticator.Token?
    var userID: String
}

/// An app's auth client: a new token, or the `URLError` that kept it from one.
struct CachingAuthClient: Sendable {
    func refresh(_ completion: @escaping @Sendable (BearerTokenAuthenticator.Token?, URLError?) -> Void) {
        completion(nil, URLError(.notConnectedToInternet))
    }
}

extension CachingSnippets {
    static func forgetAccount(_ userID: String, on network: NetworkLayer) {
        network.cache?.removeAll(forAccount: userID)
    }

    static func makeKeyedCache(in directory: URL, keychain: CachingKeychain) -> ResponseCache {
        let cache = ResponseCache(
            memoryCapacity: 4_000_000, diskCapacity: 50_000_000, directory: directory,
            fingerprintKey: keychain.cacheKey())
        return cache
    }

    static func beforeSuspending(_ network: NetworkLayer) async {
        await network.cache?.flush()
    }

    static func makeAuthenticator(saved: CachingSavedSession, auth: CachingAuthClient)
        -> BearerTokenAuthenticator
    {
        let authenticator = BearerTokenAuthenticator(token: saved.token) { completion in
            auth.refresh { token, urlError in
                if let token { return completion(.success(token)) }
                // Offline: the URLError as it is, so that the account's stored replies can answer.
                completion(.failure(urlError.map { .transport($0) } ?? .custom("Signed out")))
            }
        }
        authenticator.account = saved.userID
        return authenticator
    }
}

// Cache then network: the saved list at once, then the server's, and a banner when the second fails.

protocol TodosListView: AnyObject {
    func show(_ todos: [Todo])
    func showOfflineBanner(_ visible: Bool)
}

final class TodosListPresenter {
    let network: NetworkLayer
    weak var view: TodosListView?

    init(view: TodosListView, network: NetworkLayer) {
        self.view = view
        self.network = network
    }

    func load() {
        network.sendCacheThenNetwork(
            NetworkRequest<[Todo]>(urlString: "todos"),
            updateHandler: { response in
                // The saved list (`.hit`, or `.staleHit`), then the server's (`.network`, or `.revalidated`).
                self.view?.show(response.value)
            },
            completionHandler: { error in
                // The network failed: what is shown is the saved list.
                self.view?.showOfflineBanner(error != nil)
            })
    }
}

@MainActor
final class AsyncTodosListPresenter {
    let network: NetworkLayer
    weak var view: TodosListView?

    init(view: TodosListView, network: NetworkLayer) {
        self.view = view
        self.network = network
    }

    func load() async {
        let request = NetworkRequest<[Todo]>(urlString: "todos")
        do {
            for try await response in network.sendCacheThenNetwork(request) {
                view?.show(response.value)
            }
            view?.showOfflineBanner(false)
        } catch {
            view?.showOfflineBanner(true)
        }
    }
}

final class TodosListPresenterTests: XCTestCase {
    final class SpyTodosListView: TodosListView {
        var shown: [[Todo]] = []
        var bannerVisible = false
        func show(_ todos: [Todo]) { shown.append(todos) }
        func showOfflineBanner(_ visible: Bool) { bannerVisible = visible }
    }

    let saved = [Todo(id: 1, title: "Buy milk")]
    let fresh = [Todo(id: 1, title: "Buy milk"), Todo(id: 2, title: "Call Ann")]

    func testTheSavedListThenTheFreshOne() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com")!)
        let view = SpyTodosListView()
        network.stub(.get, "todos", stored: saved, then: .success(fresh))

        TodosListPresenter(view: view, network: network).load()

        XCTAssertEqual(view.shown, [saved, fresh])
        XCTAssertFalse(view.bannerVisible)
    }

    func testOfflineKeepsTheSavedListWithABanner() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com")!)
        let view = SpyTodosListView()
        network.stub(.get, "todos", stored: saved, then: .failure(.timedOut))

        TodosListPresenter(view: view, network: network).load()

        XCTAssertEqual(view.shown, [saved])
        XCTAssertTrue(view.bannerVisible)
    }

    @MainActor
    func testTheAsyncPresenterShowsBothAndTheBanner() async {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com")!)
        let view = SpyTodosListView()
        let presenter = AsyncTodosListPresenter(view: view, network: network)
        network.stub(.get, "todos", stored: saved, then: .cached(saved, cacheStatus: .revalidated))
        await presenter.load()
        XCTAssertEqual(view.shown, [saved, saved])
        XCTAssertFalse(view.bannerVisible)

        network.stub(.get, "todos", stored: nil, then: .failure(.timedOut))
        await presenter.load()
        XCTAssertEqual(view.shown, [saved, saved], "nothing saved, nothing more shown")
        XCTAssertTrue(view.bannerVisible)
    }
}
