import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// ``StubTransport`` serves downloads and uploads through the real pipeline: on Linux the layer's uploads
/// are data tasks with a body stream, which a `URLProtocol` can read (it sees no body of an
/// `uploadTask`), and its downloads are data tasks whose body the protocol delivers.
final class StubTransportTransferTests: XCTestCase {
    func testADownloadIsWrittenFromTheStubbedBody() throws {
        let stubs = StubTransport()
        let body = Data((0..<200_000).map { UInt8($0 % 251) })
        stubs.stub(.get, .any, with: StubResponse(status: 200, headers: ["ETag": "\"a\""], body: body))
        let network = stubs.makeNetworkLayer(callbackQueue: DispatchQueue(label: "stub-download"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StubDownload-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let done = expectation(description: "downloaded")

        network.send(
            .download(urlString: "https://files.example.com/file.bin", to: destination),
            successHandler: { _ in done.fulfill() },
            errorHandler: {
                XCTFail("\($0)")
                done.fulfill()
            })

        wait(for: [done], timeout: 10)
        XCTAssertEqual(try Data(contentsOf: destination), body)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["file.bin"])
    }

    func testAnUploadsBodyIsRecorded() throws {
        let stubs = StubTransport()
        stubs.stub(.post, .any, with: .json(["ok": true]))
        let network = stubs.makeNetworkLayer(callbackQueue: DispatchQueue(label: "stub-upload"))
        var form = MultipartFormData(boundary: "b")
        form.append("v", name: "k")
        let done = expectation(description: "uploaded")

        network.send(
            NetworkRequest<[String: Bool]>.upload(
                urlString: "https://api.example.com/forms", multipart: form),
            successHandler: { response in
                XCTAssertEqual(response.value, ["ok": true])
                done.fulfill()
            },
            errorHandler: {
                XCTFail("\($0)")
                done.fulfill()
            })

        wait(for: [done], timeout: 10)
        let recorded = try XCTUnwrap(stubs.recordedRequests.first)
        XCTAssertEqual(
            String(decoding: recorded.body ?? Data(), as: UTF8.self),
            "--b\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--b--\r\n")
        XCTAssertEqual(recorded.header("Content-Length"), "59")
    }
}
