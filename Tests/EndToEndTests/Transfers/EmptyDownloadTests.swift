import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Downloads answered 204 or 205: the server's representation is empty, so the destination gets an
/// empty file, and a reply with no body has no content type to check.
final class EmptyDownloadTests: XCTestCase {
    private struct JSONFeed: Endpoint {
        var path: String { "feed" }
        var method: HTTPMethod { .get }
        var acceptableContentTypes: [String]? { ["application/json"] }
    }

    private func download(
        _ network: NetworkLayer, _ request: NetworkRequest<URL>
    ) -> Result<NetworkResponse<URL>, NetworkError>? {
        outcome(of: NetworkResponse<URL>.self) { recorder in
            network.send(request, successHandler: recorder.success, errorHandler: recorder.failure)
        }
    }

    /// Issue 32, defect 6: a download that accepts some content types, answered 204 without a type.
    func testA204ToADownloadWithAcceptableContentTypesSucceeds() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("feed.json")

        let result = download(network, .download(JSONFeed(), to: destination))

        XCTAssertEqual(result?.value?.statusCode, 204, "\(String(describing: result))")
        XCTAssertEqual(result?.value?.value, destination)
        XCTAssertEqual(try Data(contentsOf: destination), Data())
        XCTAssertEqual(fileNames(in: folder), ["feed.json"])
    }

    /// A reply of another type with a body still fails, and writes nothing.
    func testA200OfAnotherTypeStillFailsTheContentTypeCheck() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(headers: ["Content-Type": "text/html"], body: Data("<p>".utf8)))
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()

        let result = download(network, .download(JSONFeed(), to: folder.appendingPathComponent("feed.json")))

        guard case .failure(.unacceptableContentType("text/html", _, _))? = result else {
            return XCTFail("expected an unacceptable content type, got \(String(describing: result))")
        }
        XCTAssertEqual(fileNames(in: folder), [])
    }

    /// Issue 32, decision 2: 204 and 205 replace an existing file with an empty one when asked to, and
    /// the status tells which it was. A body sent with a 205 is not the representation.
    func testA204Or205ReplacesTheDestinationWithAnEmptyFile() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()

        for (status, body) in [(204, Data()), (205, Data()), (205, Data("not the file".utf8))] {
            let destination = try writeFile(Data("old contents".utf8), named: "report.pdf", in: folder)
            server.enqueue(MockResponse(status: status, headers: ["Content-Type": "text/plain"], body: body))

            let result = download(
                network,
                .download(urlString: "report", to: destination, options: .replaceExisting))

            XCTAssertEqual(result?.value?.statusCode, status, "\(String(describing: result))")
            XCTAssertEqual(try Data(contentsOf: destination), Data(), "\(status) with \(body.count) bytes")
            XCTAssertEqual(fileNames(in: folder), ["report.pdf"], "\(status)")
        }
    }

    /// Without `.replaceExisting`, an existing file is still refused before anything is sent.
    func testA204DoesNotReplaceAFileUnlessAsked() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = try writeFile(Data("old contents".utf8), named: "report.pdf", in: folder)

        let result = download(
            network,
            .download(urlString: "report", to: destination))

        XCTAssertEqual(result?.error?.transportCode, .cannotCreateFile)
        XCTAssertEqual(server.requestCount, 0)
        XCTAssertEqual(try Data(contentsOf: destination), Data("old contents".utf8))
    }
}
