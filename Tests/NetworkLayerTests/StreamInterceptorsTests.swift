import Foundation
import XCTest

@testable import NetworkLayer

/// A stream joins the policy stage only when something there can act on it: its reconnection, a retry
/// policy, or an interceptor. Otherwise it is sent at once, like a plain request.
final class StreamInterceptorsTests: XCTestCase {
    private func reconnection(reconnects: Bool) -> StreamReconnection {
        StreamReconnection(
            state: StreamState(clock: SystemClock()), options: .default, maximumDelay: 30,
            reconnects: reconnects)
    }

    private struct Header: RequestInterceptor {}

    func testAStreamThatNeitherReconnectsNorRetriesHasNoInterceptor() {
        let none = NetworkLayer.interceptors(
            layer: [], reconnection: reconnection(reconnects: false), retries: false)
        XCTAssertTrue(none.isEmpty)
    }

    func testTheReconnectionComesLastWhenAnythingCanActOnTheStream() {
        for (layer, reconnects, retries) in [
            ([], true, false), ([], false, true), ([Header()], false, false),
        ] as [([any RequestInterceptor], Bool, Bool)] {
            let chosen = NetworkLayer.interceptors(
                layer: layer, reconnection: reconnection(reconnects: reconnects), retries: retries)
            XCTAssertEqual(chosen.count, layer.count + 1, "\(layer), \(reconnects), \(retries)")
            XCTAssertTrue(chosen.last is StreamReconnection)
        }
    }

    func testARequestThatIsNotAStreamKeepsItsInterceptors() {
        XCTAssertEqual(
            NetworkLayer.interceptors(layer: [Header()], reconnection: nil, retries: true).count, 1)
        XCTAssertTrue(NetworkLayer.interceptors(layer: [], reconnection: nil, retries: true).isEmpty)
    }
}
