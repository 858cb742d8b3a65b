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
        let request = request(servers.api.url("files")!.absoluteString, try file(seed: 82), .draft)

        let delete = try cancelledUpload(request, on: NetworkLayer(baseURL: servers.api.baseURL), servers)

        assertNoCredentials([delete], .draft)
    }

    /// Sends `request` (a draft upload) and cancels it once bytes went out; the `DELETE` the upload
    /// server got.
    private func cancelledUpload(
        _ request: NetworkRequest<URL>, on network: NetworkLayer, _ servers: Servers
    ) throws -> MockServerRequest {
        let deleted = expectation(description: "the upload is deleted")
        let serving = servers.uploadsHandler
        servers.uploads.handler = { request in
            defer { if request.method == "DELETE" { deleted.fulfill() } }
            return try serving(request)
        }
        var request = request
        let task = Locked<(any NetworkTask)?>(nil)
        request.progressHandler = { progress in
            if progress.completedBytes > 0 { task.withLock { $0 }?.cancel() }
        }

        let result = outcome(of: URL.self, timeout: 60) { recorder in
            let started = network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            task.withLock { $0 = started }
            return started
        }
        wait(for: [deleted], timeout: 10)

        XCTAssertTrue(result?.error?.isCancelled == true, String(describing: result))
        return try XCTUnwrap(servers.uploads.recordedRequests.first { $0.method == "DELETE" })
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

    // MARK: - What the layer's interceptors add

    /// What a layer's interceptors add: a name from the library's list and one the layer's redirect policy
    /// names a credential.
    private static let layerCredentials = ["X-Api-Key": "layer-key", "X-Layer-Secret": "layer-secret"]

    private func layerAddingCredentials(_ baseURL: URL?) -> NetworkLayer {
        NetworkLayer(
            baseURL: baseURL, redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Layer-Secret"]),
            interceptors: Self.layerCredentials.sorted { $0.key < $1.key }.map {
                SettingHeader(name: $0.key, value: $0.value)
            })
    }

    private func assertLayerCredentials(
        _ requests: [MockServerRequest], present: Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(requests.isEmpty, file: file, line: line)
        for request in requests {
            for (name, value) in Self.layerCredentials {
                XCTAssertEqual(
                    request.header(name), present ? value : nil, "\(name) on \(request.method)", file: file,
                    line: line)
            }
        }
    }

    func testWhatTheLayersInterceptorsAddFromTheCredentialListStaysOnTheCreatingOrigin() throws {
        for (seed, dialect) in [(87, Dialect.tus), (88, .draft)] {
            let servers = try servers(dialect)
            servers.cutNextAppend(Self.size / 2)
            var request = NetworkRequest.upload(
                urlString: "files", fileURL: try file(seed: UInt64(seed)), resumable: dialect.option,
                headers: Self.neutral)
            request.retryPolicy = Self.resuming

            let result = send(request, on: layerAddingCredentials(servers.api.baseURL))

            XCTAssertEqual(result?.value?.port, servers.uploads.port, String(describing: result))
            assertLayerCredentials(servers.api.recordedRequests, present: true)
            let sent = servers.uploads.recordedRequests
            XCTAssertEqual(sent.map(\.method), ["PATCH", "HEAD", "PATCH"], "\(dialect)")
            assertLayerCredentials(sent, present: false)
            XCTAssertEqual(sent.map { $0.header("X-Trace") }, ["trace-1", "trace-1", "trace-1"])
        }
    }

    func testACancelledUploadsDeleteOnAnotherOriginGetsNothingTheLayersInterceptorsAddFromTheList() throws {
        let servers = try servers(.draft)
        let request = NetworkRequest.upload(
            urlString: "files", fileURL: try file(seed: 89), resumable: .ietfDraft, headers: Self.neutral)

        let delete = try cancelledUpload(
            request, on: layerAddingCredentials(servers.api.baseURL), servers)

        assertLayerCredentials([delete], present: false)
        XCTAssertEqual(delete.header("X-Trace"), "trace-1")
    }

    /// After a relaunch a stored upload's first request is a `HEAD` to its upload URL, on another origin:
    /// a layer without a base URL, and an authenticator and default credentials without origins, take the
    /// origin the upload was created on, never that one.
    func testAResumedUploadOnAnotherOriginDoesntMakeItTheTokensOrigin() throws {
        let servers = try servers(.tus)
        let folder = try makeFolder()
        let source = try writeFile(TestData.bytes(Self.size, seed: 90), named: "video.mp4", in: folder)
        let launch = { (directory: URL) -> (NetworkLayer, TransferStore) in
            let authenticator = BearerTokenAuthenticator(accessToken: "token-1") { $0(.failure(.cancelled)) }
            let network = NetworkLayer(
                defaultHeaders: ["X-Api-Key": "default-key"], interceptors: [authenticator])
            return (network, try TransferStore(directory: directory, layer: network))
        }
        let (before, after) = (
            folder.appendingPathComponent("before"), folder.appendingPathComponent("after")
        )
        let store = try launch(before).1
        servers.cutNextAppend(Self.size / 2)
        var request = NetworkRequest.upload(
            urlString: servers.api.url("files")!.absoluteString, fileURL: source, resumable: .tus)
        request.retryPolicy = RetryPolicy.none
        let first = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        XCTAssertNotNil(first?.error, "the cut append fails the upload, which stays stored")
        // The relaunch: the records in a folder of their own (this store keeps its folder's lock).
        try FileManager.default.createDirectory(at: after, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: before.path) where name != "lock" {
            try FileManager.default.copyItem(
                at: before.appendingPathComponent(name), to: after.appendingPathComponent(name))
        }

        let (network, relaunched) = try launch(after)
        let transfer = try XCTUnwrap(relaunched.unfinishedTransfers.first)
        let resumed = try transferOutcome {
            try relaunched.resume(transfer, successHandler: $0, errorHandler: $1)
        }
        let later = outcome(of: Data.self) { recorder in
            network.get(
                urlString: servers.api.url("later")!.absoluteString, successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(resumed?.value?.port, servers.uploads.port, String(describing: resumed))
        let sent = servers.uploads.recordedRequests
        XCTAssertEqual(sent.map(\.method), ["PATCH", "HEAD", "PATCH"])
        for request in sent {
            XCTAssertNil(request.header("Authorization"), request.method)
            XCTAssertNil(request.header("X-Api-Key"), request.method)
        }
        XCTAssertNotNil(later)
        let last = try XCTUnwrap(servers.api.recordedRequests.last)
        XCTAssertEqual(last.path, "/later")
        XCTAssertEqual(last.header("Authorization"), "Bearer token-1")
        XCTAssertEqual(last.header("X-Api-Key"), "default-key")
    }

    // MARK: - The creating origin

    /// One server speaking `dialect` that cuts the first append at half, its stored files removed after.
    private func serverCuttingFirstAppend(_ dialect: Dialect) throws -> MockServer {
        let server = try MockServer.started(maxRequestBodySize: 2 * Self.size, in: self)
        switch dialect {
        case .tus:
            let tus = server.serveTus()
            addTeardownBlock { tus.removeStoredFiles() }
            tus.cutNextAppend(afterBytes: Self.size / 2)
        case .draft:
            let draft = server.serveResumableUploads()
            addTeardownBlock { draft.removeStoredFiles() }
            draft.cutNextAppend(afterBytes: Self.size / 2)
        }
        return server
    }

    func testAnUploadOnTheCreatingOriginStillCarriesTheCallersCredentials() throws {
        for dialect in [Dialect.tus, .draft] {
            let server = try serverCuttingFirstAppend(dialect)

            let result = send(
                request("files", try file(seed: 85), dialect), on: NetworkLayer(baseURL: server.baseURL))

            XCTAssertNotNil(result?.value, String(describing: result))
            XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
            assertAllCredentials(server.recordedRequests)
        }
    }

    func testWhatTheLayersInterceptorsAddStillGoesToTheCreatingOrigin() throws {
        for (seed, dialect) in [(91, Dialect.tus), (92, .draft)] {
            let server = try serverCuttingFirstAppend(dialect)
            var request = NetworkRequest.upload(
                urlString: "files", fileURL: try file(seed: UInt64(seed)), resumable: dialect.option)
            request.retryPolicy = Self.resuming

            XCTAssertNotNil(send(request, on: layerAddingCredentials(server.baseURL))?.value)

            XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
            assertLayerCredentials(server.recordedRequests, present: true)
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
