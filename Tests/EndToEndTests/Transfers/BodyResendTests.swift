import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// libcurl sends a request again by itself when the kept-alive connection it sent on turns out closed.
    /// With a body, FoundationNetworking asks the layer for it again, and the layer says so: in the
    /// metrics, to the monitors and in the logger. Reproduced for real, not by calling the delegate:
    /// one request opens a kept-alive connection, and the server reads the next one on it and drops it
    /// without answering, as a server closing an idle connection would (as ``RetransmissionTests`` does).
    final class BodyResendTests: XCTestCase {
        private struct Setup {
            let server: MockServer
            let network: NetworkLayer
            let recorder: EventRecorder
            let lines: LineCollector
        }

        /// A layer with a recording monitor and a logger, whose next request meets a dropped connection.
        private func layerMeetingADroppedConnection(timeout: TimeInterval = 60) throws -> Setup {
            let server = try MockServer.echoing(in: self)
            let (recorder, lines) = (EventRecorder(), LineCollector())
            let network = NetworkLayer(
                baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout,
                monitors: [recorder, NetworkLogger(level: .requests, sink: lines.sink)])
            // The warm-up's finish reaches the monitors after its handler: waited for here, so that it
            // doesn't count as the finish a test then waits for.
            let warmedUp = recorder.expectFinishes(1, self)
            warmedUp.assertForOverFulfill = false
            try dropNextRequestOnAKeptAliveConnection(of: network, to: server)
            wait(for: [warmedUp], timeout: 10)
            return Setup(server: server, network: network, recorder: recorder, lines: lines)
        }

        func testAnUploadTheTransportSendsAgainIsCountedAndToldOnce() throws {
            let setup = try layerMeetingADroppedConnection()
            let body = TestData.bytes(200_000, seed: 5)
            let finished = setup.recorder.expectFinishes(1, self)

            let result = outcome(of: NetworkResponse<Echo>.self, timeout: 20) { recorder in
                setup.network.send(
                    NetworkRequest<Echo>.upload(urlString: "uploads", data: body),
                    successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let response = try XCTUnwrap(result?.value, String(describing: result))
            XCTAssertEqual(response.value.bodyChecksum, Checksum.of(body), "sent whole the second time")
            XCTAssertEqual(setup.server.recordedRequests.filter { $0.path == "/uploads" }.count, 2)
            XCTAssertEqual(response.metrics?.bodyResends, 1)
            XCTAssertEqual(response.metrics?.attempts, 1, "one attempt, sent twice by the transport")
            wait(for: [finished], timeout: 10)
            let upload = try XCTUnwrap(setup.recorder.events.last?.request)
            let summaries = setup.recorder.events(of: upload).map(\.summary)
            XCTAssertEqual(summaries.filter { $0.hasPrefix("resend") }, ["resend 1"], "\(summaries)")
            XCTAssertEqual(
                summaries.firstIndex(of: "resend 1").map { $0 < summaries.count - 2 }, true,
                "before the reply and the finish: \(summaries)")
            XCTAssertEqual(setup.recorder.events.last?.finished?.metrics.bodyResends, 1)
            let warnings = setup.lines.lines.filter { $0.hasPrefix("⚠") }
            XCTAssertEqual(warnings.count, 1, setup.lines.text)
            XCTAssertTrue(warnings.first?.contains("POST") == true, setup.lines.text)
            XCTAssertTrue(warnings.first?.contains("idempotency key") == true, setup.lines.text)
        }

        /// A body held in memory goes out as `httpBody`, which FoundationNetworking can't send again: it
        /// sent the `Content-Length` without the body and waited for the timeout. The layer, asked for the
        /// body, ends the attempt at once as a lost connection, and counts it.
        func testAPostWhoseBodyCantBeSentAgainFailsAtOnceInsteadOfWaitingForItsTimeout() throws {
            let setup = try layerMeetingADroppedConnection(timeout: 8)
            let finished = setup.recorder.expectFinishes(1, self)
            let start = Date()

            let result = outcome(of: Echo.self, timeout: 20) { recorder in
                setup.network.post(
                    urlString: "messages", body: ["text": "hello"], successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }

            let error = try XCTUnwrap(result?.error, String(describing: result))
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(error): not the 8 s timeout")
            guard case .transport(let urlError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .networkConnectionLost)
            wait(for: [finished], timeout: 10)
            let post = try XCTUnwrap(setup.recorder.events.last?.request)
            XCTAssertEqual(
                setup.recorder.events(of: post).map(\.summary).filter { $0.hasPrefix("resend") }, ["resend 1"]
            )
            XCTAssertEqual(setup.recorder.events.last?.finished?.metrics.bodyResends, 1)
        }

        /// A request without a body is sent again unseen: nothing to count.
        func testAGetTheTransportSendsAgainIsNotSeen() throws {
            let setup = try layerMeetingADroppedConnection()
            let finished = setup.recorder.expectFinishes(1, self)

            let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
                setup.network.send(
                    NetworkRequest<Echo>(urlString: "feed"), successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }

            XCTAssertEqual(try XCTUnwrap(result?.value).metrics?.bodyResends, 0)
            XCTAssertEqual(setup.server.recordedRequests.filter { $0.path == "/feed" }.count, 2, "sent twice")
            wait(for: [finished], timeout: 10)
            XCTAssertFalse(setup.recorder.summaries.contains { $0.hasPrefix("resend") })
        }
    }
#endif
