import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A resumable upload whose creation reply names an upload URL on another origin (another port of
/// 127.0.0.1): every `HEAD`, `PATCH` and `DELETE` sent there carries the protocol's headers and the
/// caller's neutral ones, but none of the caller's credentials (`Authorization`, `Cookie`, `X-Api-Key`, a
/// name from the request's ``RedirectPolicy/credentialHeaders``), nor what the caller's own interceptors
/// add; the layer's authenticator adds its token there only when its `origins:` name that origin. An
/// upload on the creating origin still carries them all.
final class CrossOriginUploadTests: XCTestCase {
    private static let size = 1 << 20
    private static let resuming = RetryPolicy(maximumAttempts: 3, initialDelay: 0)
    private static let credentials = [
        "Authorization": "Bearer caller", "Cookie": "session=caller", "X-Api-Key": "caller-key",
        "X-Session": "caller-session",
    ]
    private static let neutral = ["X-Trace": "trace-1"]

    private enum Dialect {
        case tus, draft

        var option: ResumableUpload { self == .tus ? .tus : .ietfDraft }
        var versionHeader: (name: String, value: String) {
            self == .tus ? ("Tus-Resumable", "1.0.0") : ("Upload-Draft-Interop-Version", "6")
        }
    }

    /// An API server whose creation replies name the upload on `uploads`, a server of another origin
    /// that speaks `dialect`.
    private struct Servers {
        let api: MockServer
        let uploads: MockServer
        let cutNextAppend: (Int) -> Void
        /// What `uploads` answers with, to wrap.
        let uploadsHandler: MockServer.Handler
    }

    private func servers(_ dialect: Dialect) throws -> Servers {
        let uploads = try MockServer.started(maxRequestBodySize: 2 * Self.size, in: self)
        let handler: MockServer.Handler
        let cut: (Int) -> Void
        switch dialect {
        case .tus:
            let tus = uploads.serveTus()
            addTeardownBlock { tus.removeStoredFiles() }
            (handler, cut) = (tus.handler, tus.cutNextAppend)
        case .draft:
            let draft = uploads.serveResumableUploads()
            addTeardownBlock { draft.removeStoredFiles() }
            (handler, cut) = (draft.handler, draft.cutNextAppend)
        }
        let base = uploads.baseURL
        let api = try MockServer.started(in: self) { request in
            var reply = try handler(request)
            reply.headers = reply.headers.map { field in
                guard field.name == "Location", let named = URL(string: field.value, relativeTo: base) else {
                    return field
                }
                return (name: field.name, value: named.absoluteString)
            }
            return reply
        }
        return Servers(api: api, uploads: uploads, cutNextAppend: cut, uploadsHandler: handler)
    }

    private func file(seed: UInt64) throws -> URL {
        try writeFile(TestData.bytes(Self.size, seed: seed), named: "video.mp4", in: makeFolder())
    }

    /// The upload of `file` to `urlString`, with the caller's credentials and a neutral header, `X-Session`
    /// named a credential by the request's redirect policy.
    private func request(_ urlString: String, _ file: URL, _ dialect: Dialect) -> NetworkRequest<URL> {
        var request = NetworkRequest.upload(
            urlString: urlString, fileURL: file, resumable: dialect.option,
            headers: Self.credentials.merging(Self.neutral) { $1 })
        request.redirectPolicy = RedirectPolicy(credentialHeaders: ["X-Session"])
        request.retryPolicy = Self.resuming
        return request
    }

    private func send(_ request: NetworkRequest<URL>, on network: NetworkLayer) -> Result<URL, NetworkError>?
    {
        outcome(of: URL.self, timeout: 60) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
    }

    private func assertNoCredentials(
        _ requests: [MockServerRequest], _ dialect: Dialect, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertFalse(requests.isEmpty, "nothing reached the upload server", file: file, line: line)
        for request in requests {
            for name in Self.credentials.keys {
                XCTAssertNil(request.header(name), "\(name) on \(request.method)", file: file, line: line)
            }
            XCTAssertEqual(request.header("X-Trace"), "trace-1", request.method, file: file, line: line)
            XCTAssertEqual(
                request.header(dialect.versionHeader.name), dialect.versionHeader.value, request.method,
                file: file, line: line)
        }
    }

    private func assertAllCredentials(
        _ requests: [MockServerRequest], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(requests.isEmpty, file: file, line: line)
        for request in requests {
            for (name, value) in Self.credentials.merging(Self.neutral, uniquingKeysWith: { $1 }) {
                XCTAssertEqual(
                    request.header(name), value, "\(name) on \(request.method)", file: file, line: line)
            }
        }
    }

    // MARK: - Another origin

    func testATusUploadOnAnotherOriginGetsNoneOfTheCallersCredentials() throws {
        try assertCredentialsStayHome(.tus)
    }

    func testADraftUploadOnAnotherOriginGetsNoneOfTheCallersCredentials() throws {
        try assertCredentialsStayHome(.draft)
    }

    /// A cut append makes the upload ask its offset (`HEAD`) and append again (`PATCH`) on the other origin.
    private func assertCredentialsStayHome(_ dialect: Dialect, line: UInt = #line) throws {
        let servers = try servers(dialect)
        servers.cutNextAppend(Self.size / 2)

        let result = send(
            request(servers.api.url("files")!.absoluteString, try file(seed: 81), dialect),
            on: NetworkLayer(baseURL: servers.api.baseURL))

        XCTAssertEqual(result?.value?.port, servers.uploads.port, String(describing: result), line: line)
        XCTAssertEqual(servers.api.recordedRequests.map(\.method), ["POST"], line: line)
        assertAllCredentials(servers.api.recordedRequests, line: line)
        let sent = servers.uploads.recordedRequests
        XCTAssertEqual(sent.map(\.method), ["PATCH", "HEAD", "PATCH"], line: line)
        assertNoCredentials(sent, dialect, line: line)
        XCTAssertEqual(
            sent.compactMap { $0.header("Upload-Offset") }, ["0", String(Self.size / 2)], line: line)
    }

    func testACancelledDraftUploadIsDeletedOnAnotherOriginWithoutTheCallersCredentials() throws {
        let servers = try servers(.draft)
        let deleted = expectation(description: "the upload is deleted")
        let serving = servers.uploadsHandler
        servers.uploads.handler = { request in
            defer { if request.method == "DELETE" { deleted.fulfill() } }
            return try serving(request)
        }
        var request = request(servers.api.url("files")!.absoluteString, try file(seed: 82), .draft)
        let task = Locked<(any NetworkTask)?>(nil)
        request.progressHandler = { progress in
            if progress.completedBytes > 0 { task.withLock { $0 }?.cancel() }
        }
        let network = NetworkLayer(baseURL: servers.api.baseURL)

        let result = outcome(of: URL.self, timeout: 60) { recorder in
            let started = network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            task.withLock { $0 = started }
            return started
        }
        wait(for: [deleted], timeout: 10)

        XCTAssertTrue(result?.error?.isCancelled == true, String(describing: result))
        let delete = try XCTUnwrap(servers.uploads.recordedRequests.first { $0.method == "DELETE" })
        assertNoCredentials([delete], .draft)
    }

    func testTheCallersOwnInterceptorsDontRunOnAnotherOrigin() throws {
        let servers = try servers(.tus)
        var request = NetworkRequest.upload(
            urlString: servers.api.url("files")!.absoluteString, fileURL: try file(seed: 83), resumable: .tus)
        request.interceptors = [SettingHeader(name: "X-Api-Key", value: "from-interceptor")]

        XCTAssertNotNil(send(request, on: NetworkLayer(baseURL: servers.api.baseURL))?.value)

        XCTAssertEqual(servers.api.recordedRequests.first?.header("X-Api-Key"), "from-interceptor")
        let sent = servers.uploads.recordedRequests
        XCTAssertEqual(sent.map(\.method), ["PATCH"])
        XCTAssertNil(sent.first?.header("X-Api-Key"))
    }

    func testTheAuthenticatorsTokenGoesToAnotherOriginOnlyWhenItsOriginsNameIt() throws {
        for listsUploads in [false, true] {
            let servers = try servers(.tus)
            let origins = [servers.api.baseURL] + (listsUploads ? [servers.uploads.baseURL] : [])
            let authenticator = BearerTokenAuthenticator(accessToken: "token-1", origins: origins) {
                $0(.failure(.cancelled))
            }
            let network = NetworkLayer(baseURL: servers.api.baseURL, interceptors: [authenticator])
            let request = NetworkRequest.upload(
                urlString: "files", fileURL: try file(seed: 84), resumable: .tus)

            XCTAssertNotNil(send(request, on: network)?.value)

            XCTAssertEqual(servers.api.recordedRequests.first?.header("Authorization"), "Bearer token-1")
            let patch = try XCTUnwrap(servers.uploads.recordedRequests.first)
            XCTAssertEqual(
                patch.header("Authorization"), listsUploads ? "Bearer token-1" : nil,
                "origins listing the upload server: \(listsUploads)")
        }
    }

    // MARK: - The creating origin

    func testAnUploadOnTheCreatingOriginStillCarriesTheCallersCredentials() throws {
        for dialect in [Dialect.tus, .draft] {
            let server = try MockServer.started(maxRequestBodySize: 2 * Self.size, in: self)
            let cut: (Int) -> Void
            switch dialect {
            case .tus: cut = server.serveTus().cutNextAppend
            case .draft: cut = server.serveResumableUploads().cutNextAppend
            }
            cut(Self.size / 2)

            let result = send(
                request("files", try file(seed: 85), dialect), on: NetworkLayer(baseURL: server.baseURL))

            XCTAssertNotNil(result?.value, String(describing: result))
            XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
            assertAllCredentials(server.recordedRequests)
        }
    }

    // MARK: - A downgrade, and user-info (answered in process: no TLS server here)

    private func stubbedUpload(naming location: String) throws -> (StubTransport, Result<URL, NetworkError>?)
    {
        let transport = StubTransport()
        transport.stub(
            .post, .exact("https://api.example.com/files"),
            with: StubResponse(status: 201, headers: ["Tus-Resumable": "1.0.0", "Location": location]))
        transport.stub(
            .patch, .prefix("https://uploads.example.com/"),
            with: StubResponse(
                status: 204, headers: ["Tus-Resumable": "1.0.0", "Upload-Offset": String(Self.size)]))
        let network = transport.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        var request = request("files", try file(seed: 86), .tus)
        request.retryPolicy = RetryPolicy.none
        return (transport, send(request, on: network))
    }

    func testAnHTTPUploadURLNamedAfterHTTPSIsRefusedAndNothingIsSentThere() throws {
        let (transport, result) = try stubbedUpload(naming: "http://uploads.example.com/u/1")

        guard case .invalidRequest(let reason)? = result?.error else {
            return XCTFail("expected invalidRequest, got \(String(describing: result))")
        }
        XCTAssertTrue(reason.contains("plain http"), reason)
        XCTAssertEqual(
            transport.recordedRequests.map(\.url.absoluteString), ["https://api.example.com/files"])
    }

    func testUserInfoInAnUploadURLOnAnotherOriginIsDropped() throws {
        let (transport, result) = try stubbedUpload(naming: "https://alice:secret@uploads.example.com/u/1")

        XCTAssertNotNil(result?.value, String(describing: result))
        let patch = try XCTUnwrap(transport.recordedRequests.last)
        XCTAssertEqual(patch.method, .patch)
        XCTAssertEqual(patch.url.absoluteString, "https://uploads.example.com/u/1")
        XCTAssertNil(patch.header("Authorization"))
    }
}
