import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// `Data` both ways: a `Data` body is sent as its bytes (never as a base64 JSON string), labelled with
/// the caller's `Content-Type` or `application/octet-stream`; a `Data` reply is the body byte for byte.
final class RawBodyTests: XCTestCase {
    private let csv = Data("id,name\n1,Ann\n2,\"Lee, Bo\"\n".utf8)
    /// A PNG signature and every byte value, 0x00 and 0xFF included, then a NUL-heavy tail.
    private let binary =
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(0...255) + Data(repeating: 0, count: 64)
        + Data(repeating: 0xFF, count: 64)

    private func layer(for server: MockServer) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.url("/v1"), defaultHeaders: ["Content-Type": "application/json"],
            sessionConfiguration: .ephemeral)
    }

    /// The `Content-Type` lines of the request head exactly as sent: one, whatever the spelling.
    private func contentTypeLines(_ request: MockServerRequest) -> [String] {
        String(decoding: request.rawHead, as: UTF8.self).components(separatedBy: "\r\n")
            .filter { $0.lowercased().hasPrefix("content-type:") }
    }

    func testPostPutAndPatchSendDataAsItsBytesWithTheCallersContentType() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)

        for method in [HTTPMethod.post, .put, .patch] {
            for name in ["Content-Type", "content-type"] {
                let result = outcome(of: Echo.self) { recorder in
                    send(method, csv, headers: [name: "text/csv"], with: network, recorder: recorder)
                }

                let context = "\(method) with \(name)"
                XCTAssertEqual(
                    result?.value?.method, method.rawValue, "\(context): \(String(describing: result))")
                let request = try XCTUnwrap(server.takeRequest(timeout: 1), context)
                XCTAssertEqual(request.body, csv, "\(context): the bytes, not base64 JSON")
                XCTAssertEqual(request.header("Content-Type"), "text/csv", context)
                XCTAssertEqual(contentTypeLines(request).count, 1, "\(context): \(contentTypeLines(request))")
                XCTAssertEqual(request.header("Content-Length"), String(csv.count), context)
            }
        }
    }

    func testDataWithoutAContentTypeIsOctetStream() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)

        for method in [HTTPMethod.post, .put, .patch] {
            let result = outcome(of: Void.self) { recorder in
                send(method, binary, with: network, done: recorder.done, failure: recorder.failure)
            }

            XCTAssertNotNil(result?.value, "\(method): \(String(describing: result))")
            let request = try XCTUnwrap(server.takeRequest(timeout: 1), "\(method)")
            XCTAssertEqual(request.body, binary, "\(method)")
            XCTAssertEqual(
                request.header("Content-Type"), "application/octet-stream",
                "\(method): the body's type, not the default application/json header")
            XCTAssertEqual(contentTypeLines(request).count, 1, "\(method)")
        }
    }

    func testNetworkRequestBodiesOfData() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(for: server)
        let bodies: [(RequestBody, [String: String], String)] = [
            (.data(csv, contentType: "text/csv"), [:], "text/csv"),
            (
                .data(csv, contentType: "text/plain"), ["content-type": "text/csv; header=present"],
                "text/csv; header=present"
            ),
            (.json(csv), [:], "application/octet-stream"),
            (.json(csv), ["CONTENT-TYPE": "text/csv"], "text/csv"),
        ]

        for (index, (body, headers, contentType)) in bodies.enumerated() {
            let request = NetworkRequest<Echo>(
                method: .post, urlString: "upload", headers: headers, body: body)
            let result = outcome(of: NetworkResponse<Echo>.self) { recorder in
                network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
            }

            XCTAssertEqual(
                result?.value?.value.bodyChecksum, Checksum.of(csv), "\(index): \(String(describing: result))"
            )
            let received = try XCTUnwrap(server.takeRequest(timeout: 1), "\(index)")
            XCTAssertEqual(received.body, csv, "\(index)")
            XCTAssertEqual(received.header("Content-Type"), contentType, "\(index)")
            XCTAssertEqual(contentTypeLines(received).count, 1, "\(index): \(contentTypeLines(received))")
        }
    }

    func testABinaryReplyArrivesByteExactAsData() throws {
        let server = try MockServer.started(in: self) { [binary] _ in
            MockResponse(status: 200, headers: ["Content-Type": "image/png"], body: binary)
        }
        let network = layer(for: server)

        let plain = outcome(of: Data.self) { recorder in
            network.get(
                urlString: "logo.png", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let request = outcome(of: NetworkResponse<Data>.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "logo.png"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(plain?.value, binary, String(describing: plain))
        XCTAssertEqual(request?.value?.value, binary, String(describing: request))
        XCTAssertEqual(request?.value?.data, binary)
        XCTAssertEqual(request?.value?.headers["content-type"], "image/png")
    }

    func testAGzippedBinaryReplyArrivesInflatedAndByteExact() throws {
        let large = TestData.bytes(200_000) + binary
        let server = try MockServer.started(in: self) { _ in
            MockResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: large)
                .gzipped().chunked(size: 4_096)
        }
        let network = layer(for: server)

        let result = outcome(of: NetworkResponse<Data>.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "blob"), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value?.value.count, large.count, String(describing: result))
        XCTAssertEqual(result?.value?.value, large)
        XCTAssertEqual(result?.value?.data, large)
    }

    private func send(
        _ method: HTTPMethod, _ body: Data, headers: [String: String], with network: NetworkLayer,
        recorder: OutcomeRecorder<Echo>
    ) -> NetworkTask {
        switch method {
        case .put:
            network.put(
                urlString: "upload", body: body, headers: headers, successHandler: recorder.success,
                errorHandler: recorder.failure)
        case .patch:
            network.patch(
                urlString: "upload", body: body, headers: headers, successHandler: recorder.success,
                errorHandler: recorder.failure)
        default:
            network.post(
                urlString: "upload", body: body, headers: headers, successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
    }

    private func send(
        _ method: HTTPMethod, _ body: Data, with network: NetworkLayer, done: @escaping () -> Void,
        failure: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        switch method {
        case .put:
            network.put(urlString: "upload", body: body, successHandler: done, errorHandler: failure)
        case .patch:
            network.patch(urlString: "upload", body: body, successHandler: done, errorHandler: failure)
        default:
            network.post(urlString: "upload", body: body, successHandler: done, errorHandler: failure)
        }
    }
}
