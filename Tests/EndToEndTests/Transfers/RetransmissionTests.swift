import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// The two ways FoundationNetworking sends an upload again, and what arrives: the whole body, or an
/// error, never an empty or truncated body reported as success.
///
/// - A kept-alive connection the server has closed: libcurl notices only when it sends the upload, then
///   sends it again on a new connection, rewinding the body; a body stream that isn't replaced goes out
///   empty and the server answers 200.
/// - A 401: the authenticator refreshes its token and the layer sends a new attempt.
final class RetransmissionTests: XCTestCase {
    private let body = TestData.bytes(3 * 1_048_576, seed: 21)

    private enum Source: CaseIterable {
        case data, file, multipart
    }

    private func start(
        _ source: Source, on network: NetworkLayer, file: URL, recorder: OutcomeRecorder<Echo>
    ) -> NetworkTask {
        switch source {
        case .data:
            return network.send(
                NetworkRequest<Echo>.upload(urlString: "uploads", data: body),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        case .file:
            return network.send(
                NetworkRequest<Echo>.upload(urlString: "uploads", fileURL: file),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        case .multipart:
            var form = MultipartFormData(boundary: "b0undary")
            form.append(fileURL: file, name: "file")
            return network.send(
                NetworkRequest<Echo>.upload(urlString: "uploads", multipart: form),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
    }

    /// What the server must receive for `source`.
    private func expectedBody(_ source: Source) -> Data {
        guard source == .multipart else { return body }
        let head =
            "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"part.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        return Data(head.utf8) + body + Data("\r\n--b0undary--\r\n".utf8)
    }

    func testAConnectionClosedBeforeTheUploadSendsTheWholeBodyAgain() throws {
        for source in Source.allCases {
            let server = try MockServer.echoing(in: self)
            let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
            let file = try writeFile(body, named: "part.bin", in: makeFolder())
            try dropNextRequestOnAKeptAliveConnection(of: network, to: server)

            let result = outcome(of: Echo.self, timeout: 20) { recorder in
                start(source, on: network, file: file, recorder: recorder)
            }

            let expected = expectedBody(source)
            let echo = try XCTUnwrap(result?.value, "\(source): \(String(describing: result))")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(expected), "\(source)")
            XCTAssertEqual(echo.headers["content-length"], String(expected.count), "\(source)")
            let uploads = server.recordedRequests.filter { $0.path == "/uploads" }
            XCTAssertEqual(uploads.count, 2, "\(source): dropped once, then sent again")
            XCTAssertEqual(uploads.map(\.body.count), [expected.count, expected.count], "\(source)")
            XCTAssertNotEqual(uploads.first?.connectionID, uploads.last?.connectionID, "\(source)")
        }
    }

    func testA401RetryThroughTheAuthenticatorSendsTheWholeBodyAgain() throws {
        for source in Source.allCases {
            let server = try MockServer.echoing(in: self)
            let refreshes = Counter()
            let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
                refreshes.increment()
                completion(.success("new"))
            }
            let network = NetworkLayer(baseURL: server.baseURL, interceptors: [authenticator])
            let file = try writeFile(body, named: "part.bin", in: makeFolder())
            server.enqueue(
                MockResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"], text: "expired"))

            let result = outcome(of: Echo.self, timeout: 20) { recorder in
                start(source, on: network, file: file, recorder: recorder)
            }

            let expected = expectedBody(source)
            let echo = try XCTUnwrap(result?.value, "\(source): \(String(describing: result))")
            XCTAssertEqual(echo.headers["authorization"], "Bearer new", "\(source)")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(expected), "\(source)")
            XCTAssertEqual(refreshes.value, 1)
            let uploads = server.recordedRequests
            XCTAssertEqual(uploads.map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
            XCTAssertEqual(uploads.last?.body.count, expected.count, "\(source)")
        }
    }
}

/// A count shared with a background queue.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }

    func decrement() { lock.withLock { count -= 1 } }

    /// Increments, and returns the new value.
    func incremented() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}
