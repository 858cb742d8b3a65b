import Foundation
import NetworkLayer

/// Answers as a tus 1.0 server does (creation, `HEAD` for the offset, `PATCH` to append), storing each
/// upload in a file of its own under ``directory``, with faults to script: an append cut after some bytes,
/// a 5xx or 4xx reply, uploads forgotten.
///
/// ```swift
/// let tus = server.serveTus()
/// tus.cutNextAppend(afterBytes: 8 * 1_048_576)
/// // … upload resumably to server.url("files") …
/// XCTAssertEqual(try Data(contentsOf: tus.storedFiles[0]), source)
/// ```
///
/// Appends stream into the upload's file as they arrive (through ``bodyHandler``), so an upload of any
/// size costs the server a few pieces of memory. As tusd does, the bytes of an append that arrived
/// before its connection dropped are kept: the next `HEAD` reports them once the server has read the
/// append to its end (``keepsInterruptedAppends`` set to `false` keeps nothing of it, as tussi and
/// asgi-tus do). An append larger than ``maxRequestBodySize``, when set, is answered `413`. As tusd locks an upload, one append at a time is taken: another arriving meanwhile
/// (a resume's, while the server still reads the one the client gave up on) is answered `409` before its
/// body. A cut closes the connection in the middle of an append's body, after exactly the bytes asked. Thread-safe: the server calls it from
/// each connection's thread; the lock is never held while a file is written.
public final class TusHandler: ResumableUploadServing {
    /// The uploads and the fault script (see ``ResumableUploadServing``).
    public let ledger = UploadLedger(prefix: "tus-uploads")

    /// A server with no upload yet, storing them in a new temporary folder.
    public init() {}

    /// One `PATCH` as it arrived: its `Upload-Offset` (-1 when missing) and its body's length.
    public typealias Append = UploadAppend

    private static let version = ["Tus-Resumable": "1.0.0"]

    /// Answers a request whose body the server read whole: creation, `HEAD`, `OPTIONS`, or an append.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func answer(_ request: MockServerRequest) -> MockResponse {
        guard request.method == "OPTIONS" || request.header("Tus-Resumable") == "1.0.0" else {
            return MockResponse(status: 412, headers: ["Tus-Version": "1.0.0"])
        }
        switch request.method {
        case "OPTIONS":
            return MockResponse(
                status: 204, headers: ["Tus-Version": "1.0.0", "Tus-Extension": "creation"])
        case "POST": return create(request)
        case "HEAD":
            guard let upload = ledger.upload(at: request.path) else { return notFound }
            return MockResponse(
                status: 200,
                headers: Self.version.merging([
                    "Upload-Offset": String(upload.offset), "Upload-Length": String(upload.length ?? 0),
                    "Cache-Control": "no-store",
                ]) { $1 })
        case "PATCH": return append(request)
        default: return MockResponse(status: 405, headers: Self.version)
        }
    }

    private var notFound: MockResponse { MockResponse(status: 404, headers: Self.version) }

    private func create(_ request: MockServerRequest) -> MockResponse {
        guard let length = request.header("Upload-Length").flatMap(Int64.init), length >= 0 else {
            return MockResponse(status: 400, headers: Self.version)
        }
        guard let path = ledger.create(length: length) else {
            return MockResponse(status: 500, headers: Self.version)
        }
        return MockResponse(status: 201, headers: Self.version.merging(["Location": path]) { $1 })
    }

    /// Takes an append's body as it arrives (see ``bodyHandler``).
    ///
    /// - Parameter request: The append, its body still to come.
    /// - Returns: How the body is taken, or the reply refusing it.
    public func receiveAppend(_ request: MockServerRequest) -> MockBodyReceiver {
        guard request.header("Tus-Resumable") == "1.0.0" else {
            return .reply(MockResponse(status: 412, headers: ["Tus-Version": "1.0.0"]))
        }
        guard request.header("Content-Type") == "application/offset+octet-stream" else {
            return .reply(MockResponse(status: 415, headers: Self.version))
        }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        return ledger.receiveAppend(request, offset: offset) { [self] in reply(to: $0) }
    }

    /// An append whose body the server kept in memory, through ``handler`` alone.
    private func append(_ request: MockServerRequest) -> MockResponse {
        guard request.header("Content-Type") == "application/offset+octet-stream" else {
            return MockResponse(status: 415, headers: Self.version)
        }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        return ledger.append(request, offset: offset) { [self] in reply(to: $0) }
    }

    private func reply(to outcome: UploadLedger.AppendOutcome) -> MockResponse {
        switch outcome {
        case .failed(let status): return MockResponse(status: status, headers: Self.version)
        case .notFound: return notFound
        case .conflict: return MockResponse(status: 409, headers: Self.version)
        case .rejected: return MockResponse(status: 400, headers: Self.version)
        case .tooLarge: return MockResponse(status: 413, headers: Self.version)
        case .stored(let upload, _):
            return ledger.closingBeforeACut(
                MockResponse(
                    status: 204,
                    headers: Self.version.merging(["Upload-Offset": String(upload.offset)]) { $1 }))
        }
    }
}

extension MockServer {
    /// Answers every request not scripted with ``enqueue(_:)`` as a tus 1.0 server, through a new
    /// ``TusHandler`` installed as ``handler`` and ``bodyHandler``, and returns it.
    ///
    /// - Returns: The handler, now the server's ``handler``.
    @discardableResult
    public func serveTus() -> TusHandler {
        serve(TusHandler())
    }
}
