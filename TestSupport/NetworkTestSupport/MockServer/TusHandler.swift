import Foundation
import NetworkLayer

/// Answers as a tus 1.0 server does (creation, `HEAD` for the offset, `PATCH` to append), storing each
/// upload in a file of its own under ``directory``, with faults to script: an append cut after some bytes,
/// a 5xx reply, uploads forgotten.
///
/// ```swift
/// let tus = server.serveTus()
/// tus.cutNextAppend(afterBytes: 8 * 1_048_576)
/// // … upload resumably to server.url("files") …
/// XCTAssertEqual(try Data(contentsOf: tus.storedFiles[0]), source)
/// ```
///
/// A cut keeps the first bytes of the append's body, then closes the connection in the middle of the
/// reply: the server has what arrived before the connection dropped, and the client sees a lost
/// connection. Thread-safe: the server calls it from each
/// connection's thread; the lock is never held while a file is written.
public final class TusHandler: Sendable {
    private struct Upload {
        let file: URL
        let length: Int64
        var offset: Int64
    }

    private struct Ledger {
        var uploads: [String: Upload] = [:]
        var created = 0
        var cut: Int?
        var failures: [Int] = []
        var appends: [Append] = []
    }

    /// Where the uploads are stored, one file each; removed by ``removeStoredFiles()``.
    public let directory: URL
    private let ledger = Locked(Ledger())

    /// A server with no upload yet, storing them in a new temporary folder.
    public init() {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("TusHandler-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// What to install as ``MockServer/handler``.
    public var handler: MockServer.Handler {
        { [self] request in self.answer(request) }
    }

    /// The stored file of each upload created, in the order they were created.
    public var storedFiles: [URL] {
        ledger.withLock { ledger in
            ledger.uploads.values.map(\.file).sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    /// One `PATCH` as it arrived: its `Upload-Offset` (-1 when missing) and its body's length.
    public struct Append: Sendable, Equatable {
        /// The `Upload-Offset` the client sent, -1 when it sent none.
        public let offset: Int64
        /// The bytes of its body that arrived, kept or not.
        public let length: Int
    }

    /// Every append received, in order: what a client resumed from, and what it sent again.
    public var appends: [Append] { ledger.withLock { $0.appends } }

    /// Keeps only the first `count` bytes of the next append's body, then closes the connection in the
    /// middle of the reply.
    ///
    /// - Parameter count: How many bytes reach the upload.
    public func cutNextAppend(afterBytes count: Int) {
        ledger.withLock { $0.cut = max(0, count) }
    }

    /// Answers the next append with `status` (503 by default), storing nothing of it.
    ///
    /// - Parameter status: A 5xx status.
    public func failNextAppend(status: Int = 503) {
        ledger.withLock { $0.failures.append(status) }
    }

    /// Forgets every upload, its stored file deleted: its offset and appends are then answered 404.
    public func forgetUploads() {
        let files = ledger.withLock { ledger in
            defer { ledger.uploads = [:] }
            return ledger.uploads.values.map(\.file)
        }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// Deletes ``directory`` and everything in it.
    public func removeStoredFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let version = ["Tus-Resumable": "1.0.0"]

    private func answer(_ request: MockServerRequest) -> MockResponse {
        guard request.method == "OPTIONS" || request.header("Tus-Resumable") == "1.0.0" else {
            return MockResponse(status: 412, headers: ["Tus-Version": "1.0.0"])
        }
        switch request.method {
        case "OPTIONS":
            return MockResponse(
                status: 204, headers: ["Tus-Version": "1.0.0", "Tus-Extension": "creation"])
        case "POST": return create(request)
        case "HEAD":
            guard let upload = ledger.withLock({ $0.uploads[request.path] }) else { return notFound }
            return MockResponse(
                status: 200,
                headers: Self.version.merging([
                    "Upload-Offset": String(upload.offset), "Upload-Length": String(upload.length),
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
        let number = ledger.withLock { ledger in
            ledger.created += 1
            return ledger.created
        }
        let name = String(format: "upload-%06d", number)
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            return MockResponse(status: 500, headers: Self.version)
        }
        let path = "/tus-uploads/\(name)"
        ledger.withLock { $0.uploads[path] = Upload(file: file, length: length, offset: 0) }
        return MockResponse(status: 201, headers: Self.version.merging(["Location": path]) { $1 })
    }

    private func append(_ request: MockServerRequest) -> MockResponse {
        guard request.header("Content-Type") == "application/offset+octet-stream" else {
            return MockResponse(status: 415, headers: Self.version)
        }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        let (upload, cut, failure) = ledger.withLock { ledger in
            ledger.appends.append(Append(offset: offset ?? -1, length: request.bodyLength))
            let failure = ledger.failures.isEmpty ? nil : ledger.failures.removeFirst()
            let cut = failure == nil ? ledger.cut : nil
            if cut != nil { ledger.cut = nil }
            return (ledger.uploads[request.path], cut, failure)
        }
        if let failure { return MockResponse(status: failure, headers: Self.version) }
        guard let upload else { return notFound }
        guard offset == upload.offset else { return MockResponse(status: 409, headers: Self.version) }
        let kept = request.body.prefix(cut ?? request.body.count)
        guard upload.offset + Int64(kept.count) <= upload.length,
            let handle = try? FileHandle(forWritingTo: upload.file)
        else { return MockResponse(status: 400, headers: Self.version) }
        handle.seekToEndOfFile()
        handle.write(kept)
        handle.closeFile()
        let reached = upload.offset + Int64(kept.count)
        ledger.withLock { $0.uploads[request.path]?.offset = reached }
        let reply = MockResponse(
            status: 204, headers: Self.version.merging(["Upload-Offset": String(reached)]) { $1 })
        guard cut != nil else { return reply }
        // Dropped once the reply has begun: a connection closed before any byte of a reply makes libcurl
        // send a request again by itself on a reused connection (see ``MockResponse/Fault``), which would
        // hide what the layer does.
        return MockResponse(status: 200, headers: Self.version, text: "cut").withFault(.disconnectMidBody)
    }
}

extension MockServer {
    /// Answers every request not scripted with ``enqueue(_:)`` as a tus 1.0 server, through a new
    /// ``TusHandler``, and returns it.
    ///
    /// - Returns: The handler, now the server's ``handler``.
    @discardableResult
    public func serveTus() -> TusHandler {
        let tus = TusHandler()
        handler = tus.handler
        return tus
    }
}
