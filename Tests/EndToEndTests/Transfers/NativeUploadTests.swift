import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// The form uploads take on Apple platforms (an upload task from a file or from bytes, see
/// `NativeUploadBody`), run here on Linux through the same layer: the same bytes, the same exact
/// `Content-Length`, the same errors, and no temporary file left behind.
final class NativeUploadTests: XCTestCase {
    /// A layer with its own session sending uploads natively, whatever the platform.
    private func nativeLayer(_ server: MockServer) -> NetworkLayer {
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        network.sendsUploadsNatively = true
        return network
    }

    private func temporaryUploadFiles() -> [String] {
        let folder = FileManager.default.temporaryDirectory.path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("NetworkLayer-upload-") }
    }

    private func send(_ request: NetworkRequest<Echo>, on network: NetworkLayer) -> Result<
        Echo, NetworkError
    >? {
        outcome(of: Echo.self, timeout: 30) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
    }

    func testAFileDataAndAMultipartFormArriveByteExact() throws {
        let server = try MockServer.echoing(in: self)
        let network = nativeLayer(server)
        let folder = try makeFolder()
        let video = TestData.bytes(3_000_000, seed: 21)
        let file = try writeFile(video, named: "clip.mp4", in: folder)
        let before = temporaryUploadFiles()

        let fromFile = try XCTUnwrap(
            send(.upload(urlString: "clips", method: .put, fileURL: file), on: network)?.value)
        XCTAssertEqual(fromFile.bodyChecksum, Checksum.of(video))
        XCTAssertEqual(fromFile.headers["content-length"], String(video.count))
        XCTAssertEqual(fromFile.headers["content-type"], "video/mp4")

        let bytes = TestData.bytes(70_000, seed: 22)
        let fromData = try XCTUnwrap(
            send(.upload(urlString: "blobs", data: bytes), on: network)?.value)
        XCTAssertEqual(fromData.bodyChecksum, Checksum.of(bytes))
        XCTAssertEqual(fromData.headers["content-length"], String(bytes.count))
        _ = server.takeRequest()
        _ = server.takeRequest()

        var form = MultipartFormData()
        form.append("Holiday", name: "title")
        form.append(fileURL: file, name: "clip")
        let fromForm = try XCTUnwrap(
            send(.upload(urlString: "albums", multipart: form), on: network)?.value)
        let request = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(fromForm.headers["content-length"], String(request.body.count))
        let parts = try XCTUnwrap(ParsedPart.parse(request.body, boundary: form.boundary))
        XCTAssertEqual(parts.map(\.name), ["title", "clip"])
        XCTAssertEqual(parts[1].body, video)

        // The form went out from a temporary file, removed once the upload ended (off the delegate queue).
        let temporary = FileManager.default.temporaryDirectory.path
        let removed = expectation(
            for: NSPredicate { _, _ in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
                return Set(names.filter { $0.hasPrefix("NetworkLayer-upload-") }) == Set(before)
            }, evaluatedWith: nil)
        wait(for: [removed], timeout: 5)
    }

    func testACancelWhileTheFormIsBeingWrittenEndsAtOnce() throws {
        let server = try MockServer.started(in: self)
        server.handler = { _ in
            var reply = MockResponse(status: 200, text: "late")
            reply.delayBeforeHeaders = 20
            return reply
        }
        let network = nativeLayer(server)
        let folder = try makeFolder()
        let big = try writeFile(TestData.bytes(20_000_000, seed: 24), named: "big.bin", in: folder)
        var form = MultipartFormData()
        form.append("a", name: "first")
        form.append(fileURL: big, name: "big")

        let result = outcome(of: EmptyResponse.self, timeout: 10) { recorder in
            let task = network.send(
                NetworkRequest<EmptyResponse>.upload(urlString: "files", multipart: form),
                successHandler: { _ in recorder.success(EmptyResponse()) },
                errorHandler: { recorder.failure($0) })
            task.cancel()
            return task
        }

        guard case .failure(.cancelled) = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(server.recordedRequests.count, 0)
    }
}
