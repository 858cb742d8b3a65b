import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bodies at their edges: a declared length that contradicts the body, files that aren't plain files,
/// header values libcurl would drop, numbers and errors the form encoder must keep exact or quiet.
final class BodyEdgeTests: XCTestCase {
    private func send<Value>(_ request: NetworkRequest<Value>, on network: NetworkLayer)
        -> Result<NetworkResponse<Value>, NetworkError>?
    {
        outcome(of: NetworkResponse<Value>.self, timeout: 15) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }
    }

    /// A `Content-Length` shorter than the body would send the rest as a request of its own, whose
    /// reply the next request on the connection would get.
    func testAContentLengthShorterThanTheBodyIsRefused() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let smuggled = "GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
        let request = NetworkRequest<Echo>(
            method: .post, urlString: "items", headers: ["Content-Length": "3"],
            body: .data(Data(("abc" + smuggled).utf8), contentType: "text/plain"))

        guard case .failure(.invalidRequest)? = send(request, on: network) else {
            return XCTFail("a contradicting Content-Length was sent")
        }
        let next = send(NetworkRequest<Echo>(urlString: "next"), on: network)
        XCTAssertEqual(try next?.get().value.target, "/next")
        XCTAssertEqual(server.recordedRequests.map(\.target), ["/next"])
    }

    func testAContentLengthLongerThanTheBodyOrWithoutOneIsRefused() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let longer = NetworkRequest<Echo>(
            method: .post, urlString: "items", headers: ["Content-Length": "50"],
            body: .data(Data("0123456789".utf8), contentType: "text/plain"), timeout: 2)
        guard case .failure(.invalidRequest)? = send(longer, on: network) else {
            return XCTFail("a Content-Length longer than the body was sent")
        }
        let declaring = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 2,
            interceptors: [SettingHeader(name: "Content-Length", value: "5")])
        guard case .failure(.invalidRequest)? = send(NetworkRequest<Echo>(urlString: "items"), on: declaring)
        else {
            return XCTFail("a Content-Length without a body was sent")
        }
        // The right length, declared or not, goes out.
        let right = NetworkRequest<Echo>(
            method: .post, urlString: "items", headers: ["Content-Length": "10"],
            body: .data(Data("0123456789".utf8), contentType: "text/plain"))
        XCTAssertEqual(try send(right, on: network)?.get().value.bodyLength, 10)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testAFileReachedThroughASymbolicLinkIsSentWhole() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let folder = try makeFolder()
        let data = TestData.bytes(100_000, seed: 11)
        let real = folder.appendingPathComponent("report-2026.pdf")
        try data.write(to: real)
        let link = folder.appendingPathComponent("latest.pdf")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

        let single = outcome(of: Echo.self, timeout: 15) { recorder in
            network.send(
                NetworkRequest<Echo>.upload(urlString: "files", fileURL: link),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertEqual(try single?.get().bodyChecksum, Checksum.of(data))

        var form = MultipartFormData()
        form.append(fileURL: link, name: "file")
        let multipart = outcome(of: Echo.self, timeout: 15) { recorder in
            network.send(
                NetworkRequest<Echo>.upload(urlString: "forms", multipart: form),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertGreaterThan(try XCTUnwrap(multipart?.get()).bodyLength, data.count)
    }

    /// Opening a named pipe to read it waits for a writer: the upload must fail at once instead, on the
    /// caller's thread.
    func testAnUploadOfANamedPipeFailsAtOnce() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let pipe = try makeFolder().appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(pipe.path, 0o644), 0)

        // From a queue of its own: were the open to wait, the test fails on its timeout instead of hanging.
        let answered = expectation(description: "answered")
        nonisolated(unsafe) var result: Result<Echo, NetworkError>?
        DispatchQueue.global().async {
            network.send(
                NetworkRequest<Echo>.upload(urlString: "files", fileURL: pipe),
                successHandler: { response in
                    result = .success(response.value)
                    answered.fulfill()
                },
                errorHandler: {
                    result = .failure($0)
                    answered.fulfill()
                })
        }
        wait(for: [answered], timeout: 5)

        guard case .failure(.transport(let error))? = result else {
            return XCTFail("\(String(describing: result))")
        }
        XCTAssertEqual(error.code, .noPermissionsToReadFile)
        let text = error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
        XCTAssertTrue(text.contains("not a regular file"), text)
        XCTAssertEqual(server.requestCount, 0)
    }

    /// libcurl leaves out a header whose value is only blanks: refused, not silently dropped.
    func testAHeaderValueOfBlanksIsRefused() throws {
        let server = try MockServer.echoing(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let blank = send(NetworkRequest<Echo>(urlString: "items", headers: ["X-Blank": " \t"]), on: network)
        guard case .failure(.invalidHeader("X-Blank"))? = blank else {
            return XCTFail("\(String(describing: blank))")
        }
        let empty = send(NetworkRequest<Echo>(urlString: "items", headers: ["X-Empty": ""]), on: network)
        XCTAssertNotNil(try empty?.get().value.headers["x-empty"])
    }

    func testAnEmptyFilesRecordedUploadReadsBack() throws {
        let file = try makeFolder().appendingPathComponent("empty.txt")
        try Data().write(to: file)
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let done = expectation(description: "answered")
        network.send(
            NetworkRequest<EmptyResponse>.upload(urlString: "files", fileURL: file),
            successHandler: { _ in done.fulfill() }, errorHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(try network.recordedRequests.last?.upload?.bytes(), Data())
    }

    func testAValueTheFormEncoderRefusesIsNotShownInTheError() {
        do {
            _ = try RequestBody.urlEncodedForm(["password", "hunter2-secret"])
            XCTFail("a list has no names to encode")
        } catch {
            var dumped = ""
            dump(error, to: &dumped)
            XCTAssertFalse(error.description.contains("hunter2-secret"), error.description)
            XCTAssertFalse(dumped.contains("hunter2-secret"), dumped)
        }
    }

    /// Whole numbers stay exact at any size (`UInt64` beyond `Int64` was written as `1.8e+19`, and a
    /// whole `Decimal` beyond `Double`'s precision rounded); fractions are written as Swift writes them.
    func testTheFormEncoderKeepsLargeWholeNumbersExact() throws {
        struct Amounts: Encodable {
            let big: UInt64
            let count: Int
            let whole: Decimal
            let ratio: Double
            let three: Double
        }
        let items = try URLFormEncoder().queryItems(
            from: Amounts(
                big: 18_000_000_000_000_000_001, count: Int.min,
                whole: try XCTUnwrap(Decimal(string: "123456789012345678901")), ratio: 0.1, three: 3))
        let values = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        XCTAssertEqual(
            values,
            [
                "big": "18000000000000000001", "count": "-9223372036854775808",
                "whole": "123456789012345678901",
                "ratio": "0.1", "three": "3",
            ])
    }

    func testABoundaryWithSeparatorsIsQuotedInTheContentType() {
        XCTAssertEqual(
            MultipartFormData(boundary: "plain-1").contentType, "multipart/form-data; boundary=plain-1")
        XCTAssertEqual(
            MultipartFormData(boundary: "a/b=c").contentType, "multipart/form-data; boundary=\"a/b=c\"")
    }
}
