import Foundation
import XCTest

@testable import NetworkBenchmarks

/// The soak's arithmetic and its clients; the soak itself runs for minutes and measures, so no test runs it.
final class MemorySoakTests: XCTestCase {
    func testTheSlopeIsTheLeastSquaresLineThroughTheSamples() {
        // 200 bytes a request, with noise that cancels.
        let samples = (0..<10).map {
            SoakRecorder.Sample(
                requests: $0 * 1_000, bytes: 50_000_000 + $0 * 200_000 + ($0 % 2 == 0 ? 4_096 : -4_096))
        }
        XCTAssertEqual(MemorySoak.slope(samples), 200, accuracy: 1)
        XCTAssertEqual(MemorySoak.slope(Array(samples.prefix(1))), 0, "one sample has no slope")
    }

    func testEveryNamedClientIsMadeAndNoOther() {
        let url = URL(string: "http://127.0.0.1:1/")!
        for name in MemorySoak.clientNames {
            XCTAssertNotNil(MemorySoak.makeClient(name, baseURL: url), name)
        }
        XCTAssertNil(MemorySoak.makeClient("nginx", baseURL: url))
        XCTAssertEqual(MemorySoak.makeClient("layer", baseURL: url)?.name, "NetworkLayer, defaults")
        // A test build has DEBUG, so the inspector is started and serving, not inert.
        XCTAssertEqual(
            MemorySoak.makeClient("layer-inspected", baseURL: url)?.name, "NetworkLayer, inspected, defaults")
    }
}
