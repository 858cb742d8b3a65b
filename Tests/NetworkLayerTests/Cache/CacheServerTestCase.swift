import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A layer with a memory cache against a ``MockServer``, on a ``TestClock`` so that replies age only when
/// a test moves it.
class CacheServerTestCase: XCTestCase {
    var server: MockServer!
    var network: NetworkLayer!
    var cache: ResponseCache!
    let clock = TestClock()

    override func setUpWithError() throws {
        server = MockServer()
        try server.start()
        cache = ResponseCache(memoryCapacity: 1_000_000)
        network = makeLayer()
    }

    override func tearDown() {
        server.stop()
    }

    func makeLayer(monitors: [any NetworkMonitor] = [], interceptors: [any RequestInterceptor] = [])
        -> NetworkLayer
    {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(),
            timeout: 5, interceptors: interceptors, monitors: monitors, cache: cache)
    }

    func load(
        _ path: String = "items", method: HTTPMethod = .get, policy: CachePolicy = .useProtocolCachePolicy,
        headers: [String: String] = [:], acceptableStatusCodes: Set<Int>? = nil
    ) -> Result<NetworkResponse<Data>, NetworkError> {
        var request = NetworkRequest<Data>(method: method, urlString: path, headers: headers)
        request.cachePolicy = policy
        request.acceptableStatusCodes = acceptableStatusCodes
        let done = expectation(description: "answered")
        nonisolated(unsafe) var outcome: Result<NetworkResponse<Data>, NetworkError>?
        network.send(
            request,
            successHandler: {
                outcome = .success($0)
                done.fulfill()
            },
            errorHandler: {
                outcome = .failure($0)
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        return outcome ?? .failure(.custom("no outcome"))
    }

    func body(_ result: Result<NetworkResponse<Data>, NetworkError>) -> String? {
        (try? result.get()).map { String(decoding: $0.data, as: UTF8.self) }
    }

    func status(_ result: Result<NetworkResponse<Data>, NetworkError>) -> CacheStatus? {
        (try? result.get())?.cacheStatus
    }
}

/// A value several threads set and read; `@unchecked` because `lock` guards `stored`.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in one step, for several threads at once.
    func mutate(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
