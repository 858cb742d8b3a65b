import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Uploads end to end on MockServer: from memory, from a file and as a form, each byte-exact with an
/// exact `Content-Length`, never an empty or truncated body reported as success.
final class UploadTests: XCTestCase {
    private static let megabyte = 1_048_576

    private func upload(
        _ log: TransferLog? = nil, timeout: TimeInterval = 30,
        _ start: (
            @escaping (TransferProgress) -> Void, @escaping (Echo) -> Void, @escaping (NetworkError) -> Void
        )
            -> NetworkTask
    ) -> Result<Echo, NetworkError>? {
        outcome(of: Echo.self, timeout: timeout) { recorder in
            start(
                log?.progress ?? { _ in },
                { echo in
                    log?.finish()
                    recorder.success(echo)
                },
                { error in
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

            let result = upload(log) { progress, success, failure in
                network.upload(
                    urlString: "blobs", data: data, progressHandler: progress, successHandler: success,
                    errorHandler: failure)
            }

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

        let result = upload(log) { progress, success, failure in
            network.upload(
                urlString: "videos", method: .put, fileURL: file, progressHandler: progress,
                successHandler: success, errorHandler: failure)
        }

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

        let result = upload { progress, success, failure in
            network.upload(
                urlString: "albums", multipart: form, progressHandler: progress, successHandler: success,
                errorHandler: failure)
        }

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
            try upload { progress, success, failure in
                network.upload(
                    urlString: "forms", multipart: form, progressHandler: progress, successHandler: success,
                    errorHandler: failure)
            }?.get())

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
            upload { progress, success, failure in
                network.upload(
                    urlString: "files", fileURL: missing, progressHandler: progress, successHandler: success,
                    errorHandler: failure)
            },
            upload { progress, success, failure in
                network.upload(
                    urlString: "forms", multipart: form, progressHandler: progress, successHandler: success,
                    errorHandler: failure)
            },
            upload { progress, success, failure in
                network.upload(
                    urlString: "files", fileURL: folder, progressHandler: progress, successHandler: success,
                    errorHandler: failure)
            },
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

        let result = upload { progress, success, failure in
            network.upload(
                urlString: "blobs", data: TestData.bytes(10_000), progressHandler: progress,
                successHandler: success, errorHandler: failure)
        }

        guard case .failure(let error)? = result else {
            return XCTFail("expected the 307 itself, got \(String(describing: result))")
        }
        XCTAssertEqual(error.statusCode, 307)
        XCTAssertEqual(server.requestCount, 1)
    }
}
