import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A presenter's "offline, showing saved data" banner, tested with a stubbed cache status.
final class DummyCacheStatusTests: XCTestCase {
    func testAStubCanSayTheReplyCameFromTheCache() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com")!)
        network.stub(.get, "items", returning: ["saved"], cacheStatus: .stale(.timedOut))
        network.stub(.get, "fresh", returning: ["new"])
        var statuses: [CacheStatus] = []
        for path in ["items", "fresh"] {
            network.send(
                NetworkRequest<[String]>(urlString: path),
                successHandler: { statuses.append($0.cacheStatus) },
                errorHandler: { XCTFail("\($0)") })
        }
        XCTAssertEqual(statuses, [.stale(.timedOut), .network])
        XCTAssertNotNil(statuses.first?.staleError)
    }
}
