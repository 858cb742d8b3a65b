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
/// Appends stream into the upload's file as they arrive (through ``bodyHandler``), so an upload of any
/// size costs the server a few pieces of memory. As tus servers do, the bytes of an append that arrived
/// before its connection dropped are kept: the next `HEAD` reports them. A cut closes the connection in
/// the middle of an append's body, after exactly the bytes asked. Thread-safe: the server calls it from
/// each connection's thread; the lock is never held while a file is written.
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

    /// What to install as ``MockServer/handler``: answers creation, `HEAD` and `OPTIONS` (and an append whose
    /// body the server kept in memory, without ``bodyHandler``).
    public var handler: MockServer.Handler {
        { [self] request in self.answer(request) }
    }

    /// What to install as ``MockServer/bodyHandler``: takes each append (`PATCH`) as it arrives, writing its
    /// body into the upload's file, so the server holds no upload in memory.
    public var bodyHandler: MockServer.BodyHandler {
        { [self] request in request.method == "PATCH" ? self.receiveAppend(request) : nil }
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

    /// Closes the connection after the first `count` bytes of the next append's body, in the middle of the
    /// body: those bytes are kept, and the next `HEAD` reports them.
    ///
    /// - Parameter count: How many bytes reach the upload.
    public func cutNextAppend(afterBytes count: Int) {
        ledger.withLock { $0.cut = max(0, count) }
    }

    /// Answers the next append with `status` (503 by default) once its body has arrived, storing nothing of it.
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

    /// `reply`, closing its connection while a cut is pending: the append to cut then starts on a fresh
    /// connection. libcurl sends a request again by itself when a connection it reused closes before any
    /// byte of the reply, and with the body rewound (or, for an upload task's file, FoundationNetworking
    /// stops the process), which would hide the drop from the layer under test.
    private func closingBeforeACut(_ reply: MockResponse) -> MockResponse {
        guard ledger.withLock({ $0.cut != nil }) else { return reply }
        var closing = reply
        closing.headers.append((name: "Connection", value: "close"))
        return closing
    }

    private func answer(_ request: MockServerRequest) -> MockResponse {
        closingBeforeACut(answerKeepingTheConnection(request))
    }

    private func answerKeepingTheConnection(_ request: MockServerRequest) -> MockResponse {
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

    /// Takes an append's body as it arrives, into the upload's file; refuses at once (before the body) what
    /// the head is enough to refuse, as tus servers do.
    private func receiveAppend(_ request: MockServerRequest) -> MockBodyReceiver {
        guard request.header("Tus-Resumable") == "1.0.0" else {
            return .reply(MockResponse(status: 412, headers: ["Tus-Version": "1.0.0"]))
        }
        guard request.header("Content-Type") == "application/offset+octet-stream" else {
            return .reply(MockResponse(status: 415, headers: Self.version))
        }
        let offset = request.header("Upload-Offset").flatMap(Int64.init)
        let (upload, cut, failure) = ledger.withLock { ledger in
            let failure = ledger.failures.isEmpty ? nil : ledger.failures.removeFirst()
            let cut = failure == nil ? ledger.cut : nil
            if cut != nil { ledger.cut = nil }
            return (ledger.uploads[request.path], cut, failure)
        }
        let length = request.header("Content-Length").flatMap(Int64.init) ?? 0
        if let failure {
            return receiver(offset: offset, into: nil, room: 0, cut: nil) { _ in
                MockResponse(status: failure, headers: Self.version)
            }
        }
        guard let upload else { return refuse(offset: offset, notFound) }
        guard offset == upload.offset else {
            return refuse(offset: offset, MockResponse(status: 409, headers: Self.version))
        }
        guard upload.offset + length <= upload.length else {
            return refuse(offset: offset, MockResponse(status: 400, headers: Self.version))
        }
        return receiver(offset: offset, into: upload.file, room: upload.length - upload.offset, cut: cut) {
            [self] appender in
            let reached = upload.offset + appender.stored
            ledger.withLock { $0.uploads[request.path]?.offset = reached }
            guard !appender.overflowed else { return MockResponse(status: 400, headers: Self.version) }
            return closingBeforeACut(
                MockResponse(
                    status: 204, headers: Self.version.merging(["Upload-Offset": String(reached)]) { $1 }))
        }
    }

    /// A receiver that appends to `file` (or only counts without one), records the append once its body
    /// ends, and then calls `reply`, also after a cut or a drop: the bytes that came are kept.
    private func receiver(
        offset: Int64?, into file: URL?, room: Int64, cut: Int?,
        reply: @escaping (UploadAppender) -> MockResponse
    ) -> MockBodyReceiver {
        guard let appender = UploadAppender(file: file, room: room) else {
            return refuse(offset: offset, MockResponse(status: 500, headers: Self.version))
        }
        return MockBodyReceiver(
            cutsAfterBytes: cut, receive: appender.write,
            finish: { [self] _ in
                appender.close()
                let append = Append(offset: offset ?? -1, length: Int(appender.received))
                ledger.withLock { $0.appends.append(append) }
                return reply(appender)
            })
    }

    private func refuse(offset: Int64?, _ response: MockResponse) -> MockBodyReceiver {
        ledger.withLock { $0.appends.append(Append(offset: offset ?? -1, length: 0)) }
        return .reply(response)
    }

    /// An append that arrived whole, through ``handler`` alone: its body goes through the same receiver; a
    /// cut keeps the first bytes and closes the connection without a reply.
    private func append(_ request: MockServerRequest) -> MockResponse {
        let receiver = receiveAppend(request)
        if let reply = receiver.immediateReply { return reply }
        let kept = request.body.prefix(receiver.cutsAfterBytes ?? request.body.count)
        receiver.receive(kept)
        guard kept.count == request.body.count else {
            _ = receiver.finish(.cut)
            return MockResponse(status: 500).withFault(.disconnectAfterRequest)
        }
        return receiver.finish(.complete)
    }
}

extension MockServer {
    /// Answers every request not scripted with ``enqueue(_:)`` as a tus 1.0 server, through a new
    /// ``TusHandler`` installed as ``handler`` and ``bodyHandler``, and returns it.
    ///
    /// - Returns: The handler, now the server's ``handler``.
    @discardableResult
    public func serveTus() -> TusHandler {
        let tus = TusHandler()
        handler = tus.handler
        bodyHandler = tus.bodyHandler
        return tus
    }
}
