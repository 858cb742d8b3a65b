import Foundation
import NetworkLayer

/// Answers as a server of the IETF resumable-upload draft does, at interop version 6
/// (draft-ietf-httpbis-resumable-upload-05): creation with `POST` and `Upload-Complete`, `HEAD` for the
/// offset, `PATCH` with `application/partial-upload` to append, `DELETE` to cancel. Each upload is stored
/// in a file of its own under ``directory``, with the same faults to script as ``TusHandler``: an append
/// cut after some bytes, a 5xx or 4xx reply, uploads forgotten.
///
/// ```swift
/// let uploads = server.serveResumableUploads()
/// uploads.cutNextAppend(afterBytes: 8 * 1_048_576)
/// // … upload with .ietfDraft to server.url("files") …
/// XCTAssertEqual(try Data(contentsOf: uploads.storedFiles[0]), source)
/// ```
///
/// Appends stream into the upload's file as they arrive (through ``bodyHandler``), and the bytes of an
/// append cut or dropped in the middle of its body are kept, as ``TusHandler`` does (or not, with
/// ``keepsInterruptedAppends`` set to `false`); an append larger than ``maxRequestBodySize`` is answered
/// `413`. No `104` is sent: the final reply to a creation names the upload in `Location`, which is what a client
/// on libcurl (which consumes informational replies) relies on. Thread-safe, as ``TusHandler`` is.
public final class ResumableUploadHandler: ResumableUploadServing {
    /// The uploads and the fault script (see ``ResumableUploadServing``).
    public let ledger = UploadLedger(prefix: "draft-uploads")

    /// A server with no upload yet, storing them in a new temporary folder.
    public init() {}

    private static let version = ["Upload-Draft-Interop-Version": "6"]

    /// Answers a request whose body the server read whole: creation, `HEAD`, `DELETE`, or an append.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func answer(_ request: MockServerRequest) -> MockResponse {
        guard request.header("Upload-Draft-Interop-Version") == "6" else {
            return MockResponse(status: 400, headers: Self.version)
        }
        switch request.method {
        case "POST": return create(request)
        case "HEAD":
            guard let upload = ledger.upload(at: request.path) else { return notFound }
            return MockResponse(
                status: 204, headers: Self.state(of: upload).merging(["Cache-Control": "no-store"]) { $1 })
        case "PATCH": return append(request)
        case "DELETE":
            return ledger.remove(at: request.path)
                ? MockResponse(status: 204, headers: Self.version) : notFound
        default: return MockResponse(status: 405, headers: Self.version)
        }
    }

    private var notFound: MockResponse { MockResponse(status: 404, headers: Self.version) }

    /// The draft's fields saying where an upload is: `Upload-Offset`, `Upload-Complete`, and the version.
    private static func state(of upload: UploadLedger.Upload) -> [String: String] {
        version.merging([
            "Upload-Offset": String(upload.offset), "Upload-Complete": upload.isComplete ? "?1" : "?0",
        ]) { $1 }
    }

    private static func completeness(_ request: MockServerRequest) -> Bool? {
        switch request.header("Upload-Complete") {
        case "?1": true
        case "?0": false
        default: nil
        }
    }

    private func create(_ request: MockServerRequest) -> MockResponse {
        guard let isComplete = Self.completeness(request) else {
            return MockResponse(status: 400, headers: Self.version)
        }
        let length = request.header("Upload-Length").flatMap(Int64.init)
        guard let path = ledger.create(length: length, body: request.body, isComplete: isComplete),
            let upload = ledger.upload(at: path)
        else { return MockResponse(status: 500, headers: Self.version) }
        return MockResponse(
            status: isComplete ? 200 : 201, headers: Self.state(of: upload).merging(["Location": path]) { $1 }
        )
    }

    /// Takes an append's body as it arrives (see ``bodyHandler``).
    ///
    /// - Parameter request: The append, its body still to come.
    /// - Returns: How the body is taken, or the reply refusing it.
    public func receiveAppend(_ request: MockServerRequest) -> MockBodyReceiver {
        guard request.header("Upload-Draft-Interop-Version") == "6",
            request.header("Content-Type") == "application/partial-upload",
            let isComplete = Self.completeness(request)
        else { return .reply(MockResponse(status: 400, headers: Self.version)) }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        return ledger.receiveAppend(request, offset: offset, completes: isComplete) { [self] in reply(to: $0)
        }
    }

    /// An append whose body the server kept in memory, through ``handler`` alone.
    private func append(_ request: MockServerRequest) -> MockResponse {
        guard request.header("Content-Type") == "application/partial-upload",
            let isComplete = Self.completeness(request)
        else { return MockResponse(status: 400, headers: Self.version) }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        return ledger.append(request, offset: offset, completes: isComplete) { [self] in reply(to: $0) }
    }

    private func reply(to outcome: UploadLedger.AppendOutcome) -> MockResponse {
        switch outcome {
        case .failed(let status): return MockResponse(status: status, headers: Self.version)
        case .notFound: return notFound
        case .conflict(let upload): return MockResponse(status: 409, headers: Self.state(of: upload))
        case .rejected: return MockResponse(status: 400, headers: Self.version)
        case .tooLarge: return MockResponse(status: 413, headers: Self.version)
        case .stored(let upload, _):
            return ledger.closingBeforeACut(
                MockResponse(status: upload.isComplete ? 200 : 204, headers: Self.state(of: upload)))
        }
    }
}

extension MockServer {
    /// Answers every request not scripted with ``enqueue(_:)`` as a server of the IETF resumable-upload
    /// draft at interop version 6, through a new ``ResumableUploadHandler`` installed as ``handler`` and
    /// ``bodyHandler``, and returns it.
    ///
    /// - Returns: The handler, now the server's ``handler``.
    @discardableResult
    public func serveResumableUploads() -> ResumableUploadHandler {
        serve(ResumableUploadHandler())
    }
}
