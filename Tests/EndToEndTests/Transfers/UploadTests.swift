import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Uploads end to end on MockServer: from memory, from a file and as a form, each byte-exact with an
/// exact `Content-Length`, never an empty or truncated body reported as success.
final class UploadTests: XCTestCase {
    private static let megabyte = 1_048_576

    /// Sends `request` through `network` with a progress handler: `log`'s, else one that ignores it.
    private func upload(
        _ request: NetworkRequest<Echo>, on network: NetworkLayer, log: TransferLog? = nil,
        timeout: TimeInterval = 30
    ) -> Result<Echo, NetworkError>? {
        var request = request
        request.progressHandler = log?.progress ?? { _ in }
        return outcome(of: Echo.self, timeout: timeout) { recorder in
            network.send(
                request,
                successHandler: { response in
                    log?.finish()
                    recorder.success(response.value)
                },
                errorHandler: { error in
                    log?.finish()
                    recorder.failure(error)
                })
        }
    }

    func testDataUploadsOfEverySizeArriveByteExactWithAnExactContentLength() throws {
        let server = try MockServer.echoing(maxRequestBodySize: 60 * Self.megabyte, in: self)
        let network = NetworkLayer(baseURL: server.baseURL)

        for size in [0, 1, 64 * 1024, 50 * Self.megabyte] {
            let data = TestData.bytes(size, seed: UInt64(size) + 3)
            let log = TransferLog()

            let result = upload(.upload(urlString: "blobs", data: data), on: network, log: log)

            let echo = try XCTUnwrap(result?.value, "\(size) bytes: \(String(describing: result))")
            XCTAssertEqual(echo.method, "POST")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(data), "\(size) bytes")
            XCTAssertEqual(echo.headers["content-length"], String(size))
            XCTAssertNil(echo.headers["transfer-encoding"])
            XCTAssertEqual(echo.headers["content-type"], "application/octet-stream")
            log.assertContract(total: Int64(size), expected: Int64(size))
        }
    }

    func testAFileUploadIsStreamedByteExact() throws {
        let server = try MockServer.echoing(maxRequestBodySize: 60 * Self.megabyte, in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let data = TestData.bytes(50 * Self.megabyte, seed: 5)
        let file = try writeFile(data, named: "video.mp4", in: makeFolder())
        let log = TransferLog()

        let result = upload(.upload(urlString: "videos", method: .put, fileURL: file), on: network, log: log)

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(echo.method, "PUT")
        XCTAssertEqual(echo.bodyChecksum, Checksum.of(data))
        XCTAssertEqual(echo.headers["content-length"], String(data.count))
        XCTAssertEqual(echo.headers["content-type"], "video/mp4")
        XCTAssertNil(echo.headers["transfer-encoding"])
        log.assertContract(total: Int64(data.count), expected: Int64(data.count))
    }

    func testAMultipartFormIsParsedBackByTheServer() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let photo = TestData.bytes(300_000, seed: 8)
        let photoURL = try writeFile(photo, named: "holiday.jpg", in: folder)
        let notes = Data("line one\r\nline two".utf8)
        var form = MultipartFormData()
        form.append("Grüße \"aus\" Köln", name: "title")
        form.append(fileURL: photoURL, name: "photo")
        form.append(notes, name: "notes", fileName: "notes.txt", mimeType: "text/plain; charset=utf-8")

        let result = upload(.upload(urlString: "albums", multipart: form), on: network)

        let echo = try XCTUnwrap(result?.value, String(describing: result))
        let request = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(echo.headers["content-type"], "multipart/form-data; boundary=\(form.boundary)")
        XCTAssertEqual(echo.headers["content-length"], String(request.body.count))
        let parts = try XCTUnwrap(ParsedPart.parse(request.body, boundary: form.boundary))
        XCTAssertEqual(parts.map(\.name), ["title", "photo", "notes"])
        XCTAssertEqual(parts.map(\.fileName), [nil, "holiday.jpg", "notes.txt"])
        XCTAssertEqual(
            parts.map { $0.headers["content-type"] }, [nil, "image/jpeg", "text/plain; charset=utf-8"])
        XCTAssertEqual(String(decoding: parts[0].body, as: UTF8.self), "Grüße \"aus\" Köln")
        XCTAssertEqual(parts[1].body, photo)
        XCTAssertEqual(parts[2].body, notes)
    }

    func testFieldNamesAreEscapedSoTheyCantBreakTheForm() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        var form = MultipartFormData(boundary: "fixed-boundary")
        form.append("v", name: "a\"b\r\nX-Injected: 1")

        XCTAssertNotNil(
            try upload(.upload(urlString: "forms", multipart: form), on: network)?.get())

        let body = try XCTUnwrap(server.takeRequest()?.body)
        XCTAssertEqual(
            String(decoding: body, as: UTF8.self),
            "--fixed-boundary\r\nContent-Disposition: form-data; name=\"a%22b%0D%0AX-Injected: 1\"\r\n\r\nv\r\n"
                + "--fixed-boundary--\r\n")
    }

    func testAMissingFileIsAClearErrorAndNothingIsSent() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let missing = folder.appendingPathComponent("gone.pdf")
        var form = MultipartFormData()
        form.append("x", name: "title")
        form.append(fileURL: missing, name: "file")

        let results = [
            upload(.upload(urlString: "files", fileURL: missing), on: network),
            upload(.upload(urlString: "forms", multipart: form), on: network),
            upload(.upload(urlString: "files", fileURL: folder), on: network),
        ]

        for (result, code) in zip(
            results, [URLError.Code.fileDoesNotExist, .fileDoesNotExist, .fileIsDirectory])
        {
            guard case .failure(.transport(let error))? = result else {
                return XCTFail("expected a file error, got \(String(describing: result))")
            }
            XCTAssertEqual(error.code, code)
            XCTAssertEqual(NetworkError.transport(error).message, "The file could not be found.")
            XCTAssertTrue(
                "\(NetworkError.transport(error))".contains(code == .fileIsDirectory ? "folder" : "gone.pdf"))
        }
        XCTAssertEqual(server.requestCount, 0)
    }

    func testARedirectThatWouldLoseTheBodyIsNotFollowed() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        server.enqueue(MockResponse(status: 307, headers: ["Location": "/elsewhere"], text: "moved"))

        let result = upload(.upload(urlString: "blobs", data: TestData.bytes(10_000)), on: network)

        guard case .failure(let error)? = result else {
            return XCTFail("expected the 307 itself, got \(String(describing: result))")
        }
        XCTAssertEqual(error.statusCode, 307)
        XCTAssertEqual(server.requestCount, 1)
    }
}
