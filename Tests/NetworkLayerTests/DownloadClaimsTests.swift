import Foundation
import XCTest

@testable import NetworkLayer

/// Who gets a destination, and when: a live download refuses a second one, a cancelled one hands it on
/// in order, and a download cancelled while it waited passes its turn on at once.
final class DownloadClaimsTests: XCTestCase {
    private final class Owner: Sendable {
        let abandoned = Locked(false)
        var isAbandoned: @Sendable () -> Bool { { [abandoned] in abandoned.withLock { $0 } } }
    }

    private let destination = FileManager.default.temporaryDirectory
        .appendingPathComponent("claims-\(UUID().uuidString).bin")

    func testTurnsPassInOrderAndACancelledWaiterPassesItsTurnOn() {
        let first = Owner()
        let second = Owner()
        let third = Owner()
        let started = Locked<[String]>([])
        XCTAssertEqual(
            "\(DownloadClaims.claim(destination, for: first, isAbandoned: first.isAbandoned) {})", "claimed")
        // A second live download is refused while the first is alive.
        XCTAssertEqual(
            "\(DownloadClaims.claim(destination, for: second, isAbandoned: second.isAbandoned) {})", "busy")

        first.abandoned.withLock { $0 = true }
        let destination = destination
        let waitingSecond = DownloadClaims.claim(destination, for: second, isAbandoned: second.isAbandoned) {
            started.withLock { $0.append("second") }
            // Cancelled while it waited: it sends nothing and gives its turn up at once.
            DownloadClaims.release(destination, by: second)
        }
        XCTAssertEqual("\(waitingSecond)", "waiting")
        second.abandoned.withLock { $0 = true }
        let waitingThird = DownloadClaims.claim(destination, for: third, isAbandoned: third.isAbandoned) {
            started.withLock { $0.append("third") }
        }
        XCTAssertEqual("\(waitingThird)", "waiting")
        XCTAssertEqual(started.withLock { $0 }, [])

        DownloadClaims.release(destination, by: first)
        XCTAssertEqual(started.withLock { $0 }, ["second", "third"])
        // The third holds it now: a new live download is refused until the third gives it up.
        let fourth = Owner()
        XCTAssertEqual(
            "\(DownloadClaims.claim(destination, for: fourth, isAbandoned: fourth.isAbandoned) {})", "busy")
        DownloadClaims.release(destination, by: third)
        XCTAssertEqual(
            "\(DownloadClaims.claim(destination, for: fourth, isAbandoned: fourth.isAbandoned) {})", "claimed"
        )
        DownloadClaims.release(destination, by: fourth)
    }
}
