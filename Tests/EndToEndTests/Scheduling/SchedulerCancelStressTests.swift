import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// 1,000 requests, shared and queued behind a budget, cancelled at random moments from many threads while
/// replies are released (issue 34): every caller gets exactly one outcome, and nothing stays in the
/// scheduler.
final class SchedulerCancelStressTests: XCTestCase {
    func testAThousandRandomCancelsOfSharedAndQueuedRequests() {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"),
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 3))
        network.holdsReplies = true
        network.successResponse = ["x"]
        let outcomes = CallerOutcomes<[String]>(expectation(description: "1000 outcomes"), count: 1000)
        // 40 resources: each is shared by about 25 callers; 3 go at once, the rest wait by priority.
        let tasks = (0..<1000).map { index in
            var request = NetworkRequest<[String]>(urlString: "/r/\(index % 40)")
            request.priority = [.prefetch, .default, .userInitiated][index % 3]
            let (success, failure) = outcomes.handlers(index)
            return network.send(request, successHandler: success, errorHandler: failure)
        }
        let cancelled = Set((0..<1000).filter { _ in Bool.random() })
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: 1000) { index in
                if cancelled.contains(index) { tasks[index].cancel() }
            }
        }
        // Releases what is held until nothing is, while the cancels race with it.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let held = network.pendingRequests.first {
                held.respond()
            } else if group.wait(timeout: .now()) == .success, network.pendingRequests.isEmpty,
                network.scheduledCount == 0
            {
                break
            }
        }
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(outcomes.counts, Array(repeating: 1, count: 1000))
        XCTAssertEqual(network.scheduledCount, 0)
        for index in cancelled {
            if case .success = outcomes.all[index]?.first {
                continue  // answered before its cancel arrived
            }
            guard case .failure(.cancelled) = outcomes.all[index]?.first else {
                return XCTFail("caller \(index): \(String(describing: outcomes.all[index]))")
            }
        }
    }
}
