import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The order of the pipeline's stages, as a monitor, an interceptor and the cache see it: monitoring sees
/// each request once, the policies run before the cache answers (the interceptors' credential keys the
/// entry), and a cached reply is an attempt the monitors see, as the interceptors left it.
final class StageOrderTests: XCTestCase {
    /// Counts the attempts it adapts, and marks each with its number.
    final class CountingInterceptor: RequestInterceptor, @unchecked Sendable {
        private let count = Locked(0)
        var adapted: Int { count.withLock { $0 } }

        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            let number = count.withLock { count in
                count += 1
                return count
            }
            var request = request
            request.setValue("\(number)", forHTTPHeaderField: "X-Adapted")
            completion(.success(request))
        }
    }

    func testACachedReplyPassesThePoliciesAndIsOneAttemptOfOneMonitoredRequest() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.handler = { _ in MockResponse(text: "v1").cacheControl("max-age=60") }
        let recorder = EventRecorder()
        let interceptor = CountingInterceptor()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [interceptor], monitors: [recorder], cache: ResponseCache(memoryCapacity: 100_000))
        let finished = recorder.expectFinishes(2, self)
        var statuses: [CacheStatus] = []
        for _ in 0..<2 {
            let answered = expectation(description: "answered")
            nonisolated(unsafe) var status: CacheStatus?
            network.send(
                NetworkRequest<Data>(method: .get, urlString: "items"),
                successHandler: {
                    status = $0.cacheStatus
                    answered.fulfill()
                },
                errorHandler: { XCTFail("\($0)") })
            wait(for: [answered], timeout: 10)
            statuses.append(try XCTUnwrap(status))
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(statuses, [.network, .hit])
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
        XCTAssertEqual(interceptor.adapted, 2, "the policies run above the cache, for a cached reply too")
        let requests = recorder.events.filter(\.isFinish).map(\.request)
        XCTAssertEqual(requests.count, 2)
        let second = recorder.events(of: requests[1])
        XCTAssertEqual(second.map(\.summary), ["build 1", "start 1", "receive 1 200", "finish 200"])
        XCTAssertEqual(second.first?.built?.value(forHTTPHeaderField: "X-Adapted"), "2")
    }
}
