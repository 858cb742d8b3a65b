import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Apple branches of the platform layer on Linux, in the `-D NETWORKLAYER_APPLE_BRANCHES` build
// (`.ci/run` runs this class there), each against a stand-in for the system's half, never against
// FoundationNetworking's (suspending its task mid-reply corrupts the reply). On Apple systems the whole
// suite runs these branches against URLSession itself, where a task made with `init()` is deprecated.
#if NETWORKLAYER_APPLE_BRANCHES && canImport(FoundationNetworking)
    final class AppleBranchTests: XCTestCase {
        /// The queue the delegate's operations run on is held by the queue itself: FoundationNetworking
        /// holds `underlyingQueue` `unowned(unsafe)`, where it was freed as soon as it was set.
        func testTheDelegateQueueRunsOperationsOnTheSessionDelegateQueue() {
            let queue = BackPressureQueue()
            let ran = expectation(description: "each operation ran on the session delegate queue")
            ran.expectedFulfillmentCount = 20
            for _ in 0..<20 {
                queue.enqueue {
                    // Allocations between operations reuse a freed queue's memory, if it was freed.
                    _ = (0..<8).map { DispatchQueue(label: "filler \($0)") }
                    if Queues.isSessionDelegate { ran.fulfill() }
                }
            }
            wait(for: [ran], timeout: 10)
        }

        /// A reply is paused by suspending its task and resumed by resuming it; a task already ended
        /// (`nil`) is left alone, and the queue never holds the session back.
        func testPausingAReplySuspendsItsTask() {
            let queue = BackPressureQueue()
            let task = StandInTask()
            queue.pauseReading(task)
            XCTAssertFalse(queue.isHoldingBack)
            queue.resumeReading(task)
            queue.resumeReading(nil)
            XCTAssertEqual(task.calls.withLock { $0 }, ["suspend", "resume"])
        }

        /// The system answers certificate challenges; any other protection space is rejected, so the 401
        /// or 407 is the reply.
        func testCertificateChallengesGoToTheSystemOthersAreRejected() {
            let cases: [(String, URLSession.AuthChallengeDisposition)] = [
                (NSURLAuthenticationMethodServerTrust, .performDefaultHandling),
                (NSURLAuthenticationMethodClientCertificate, .performDefaultHandling),
                (NSURLAuthenticationMethodHTTPBasic, .rejectProtectionSpace),
                (NSURLAuthenticationMethodDefault, .rejectProtectionSpace),
            ]
            for (method, expected) in cases {
                let answers = Locked<[URLSession.AuthChallengeDisposition]>([])
                PlatformSession.answer(challenge(method), for: nil, task: StandInTask()) {
                    disposition, credential in
                    XCTAssertNil(credential)
                    answers.withLock { $0.append(disposition) }
                }
                XCTAssertEqual(answers.withLock { $0 }, [expected], method)
            }
        }

        func testTheSessionKeepsNoCacheAndNoStoredCredentials() {
            let configuration = URLSessionConfiguration.default.copy() as? URLSessionConfiguration ?? .default
            PlatformSession.adapt(configuration)
            XCTAssertNil(configuration.urlCache)
            XCTAssertNil(configuration.urlCredentialStorage)
            XCTAssertFalse(configuration.waitsForConnectivity)
        }

        private func challenge(_ method: String) -> URLAuthenticationChallenge {
            let space = URLProtectionSpace(
                host: "api.example.com", port: 443, protocol: "https", realm: nil,
                authenticationMethod: method)
            return URLAuthenticationChallenge(
                protectionSpace: space, proposedCredential: nil, previousFailureCount: 0,
                failureResponse: nil,
                error: nil, sender: StandInSender())
        }
    }

    /// Stands in for the system's task: records what the layer asks of it.
    private final class StandInTask: URLSessionDataTask, @unchecked Sendable {
        let calls = Locked<[String]>([])

        override func suspend() { calls.withLock { $0.append("suspend") } }

        override func resume() { calls.withLock { $0.append("resume") } }
    }

    /// A challenge's sender, never called: the layer answers through the completion handler.
    private final class StandInSender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }
#endif
