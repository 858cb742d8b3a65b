import Foundation
import NetworkLayer

/// One `PATCH` as it arrived at a resumable-upload handler: its `Upload-Offset` (-1 when missing) and its
/// body's length.
public struct UploadAppend: Sendable, Equatable {
    /// The `Upload-Offset` the client sent, -1 when it sent none.
    public let offset: Int64
    /// The bytes of its body that arrived, kept or not.
    public let length: Int
}

/// What ``TusHandler`` and ``ResumableUploadHandler`` share: the uploads, each stored in a file of its own
/// and appended to as each `PATCH`'s body arrives, and the fault script (an append cut in the middle of its
/// body, a 5xx once, uploads forgotten). The protocols differ only in how they spell requests and replies.
/// The lock is never held while a file is written. Opaque outside the test support: a handler's own
/// members (see ``ResumableUploadServing``) read and script it.
public final class UploadLedger: Sendable {
    struct Upload {
        let file: URL
        /// The length announced, when one was.
        var length: Int64?
        var offset: Int64
        var isComplete = false
        /// An append is being received: another is refused until it ends, as tus servers lock an upload
        /// for the length of a `PATCH`. Without this, a cancelled append the server still reads and its
        /// resume's append at the same offset would both be written, the offset counted twice.
        var isAppending = false
    }

    /// What became of an append.
    enum AppendOutcome {
        /// Answered with this status, storing nothing (a scripted failure).
        case failed(Int)
        case notFound
        /// The offset sent isn't the server's.
        case conflict(Upload)
        /// More bytes than the announced length, or a file that can't be written.
        case rejected
        /// A body larger than the limit (``UploadLedger/maxRequestBodySize``), refused before it is read.
        case tooLarge
        /// Stored; `cut` when the connection dropped (or was cut) before the reply: no reply is sent.
        case stored(Upload, cut: Bool)
    }

    private struct State {
        var uploads: [String: Upload] = [:]
        var created = 0
        var cut: Int?
        var failures: [Int] = []
        var appends: [UploadAppend] = []
        var maxRequestBodySize: Int?
        var keepsInterruptedAppends = true
    }

    let directory: URL
    /// The path each upload's resource is under, as `/<prefix>/upload-000001`.
    private let prefix: String
    private let state = Locked(State())

    init(prefix: String) {
        self.prefix = prefix
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var storedFiles: [URL] {
        state.withLock { state in
            state.uploads.values.map(\.file).sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    var appends: [UploadAppend] { state.withLock { $0.appends } }

    /// The largest append body taken; a larger one is refused (``AppendOutcome/tooLarge``) before its body,
    /// as nginx's `client_max_body_size` and tussi's request limit answer `413`. `nil`: any size.
    var maxRequestBodySize: Int? {
        get { state.withLock { $0.maxRequestBodySize } }
        set { state.withLock { $0.maxRequestBodySize = newValue } }
    }

    /// Whether the bytes of an append cut or dropped before its body ended are kept (tusd, and this ledger
    /// by default) or thrown away, the offset left where the append began (tussi, asgi-tus).
    var keepsInterruptedAppends: Bool {
        get { state.withLock { $0.keepsInterruptedAppends } }
        set { state.withLock { $0.keepsInterruptedAppends = newValue } }
    }

    func cutNextAppend(afterBytes count: Int) {
        state.withLock { $0.cut = max(0, count) }
    }

    func failNextAppend(status: Int) {
        state.withLock { $0.failures.append(status) }
    }

    func forgetUploads() {
        let files = state.withLock { state in
            defer { state.uploads = [:] }
            return state.uploads.values.map(\.file)
        }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    func removeStoredFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    func upload(at path: String) -> Upload? {
        state.withLock { $0.uploads[path] }
    }

    /// Creates an upload holding `body`, complete when `isComplete`; returns its path, or `nil` when its
    /// file can't be made.
    func create(length: Int64?, body: Data = Data(), isComplete: Bool = false) -> String? {
        let number = state.withLock { state in
            state.created += 1
            return state.created
        }
        let name = String(format: "upload-%06d", number)
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: body) else { return nil }
        let path = "/\(prefix)/\(name)"
        let upload = Upload(
            file: file, length: isComplete ? Int64(body.count) : length, offset: Int64(body.count),
            isComplete: isComplete)
        state.withLock { $0.uploads[path] = upload }
        return path
    }

    /// Forgets the upload at `path` and deletes its file; `false` when there is none.
    func remove(at path: String) -> Bool {
        guard let upload = state.withLock({ $0.uploads.removeValue(forKey: path) }) else { return false }
        try? FileManager.default.removeItem(at: upload.file)
        return true
    }

    /// Takes an append to the upload at `request`'s path as its body arrives, written into the upload's file,
    /// by the fault script; `completes` when the client says this is the last part. What the head is enough
    /// to refuse (no such upload, a wrong offset, more than the announced length) is answered before the
    /// body; the bytes of a cut or dropped append are kept, as servers of both protocols do. `reply` spells
    /// the outcome in the protocol's words.
    func receiveAppend(
        _ request: MockServerRequest, offset: Int64?, completes: Bool = false,
        reply: @escaping (AppendOutcome) -> MockResponse
    ) -> MockBodyReceiver {
        let declared = request.header("Content-Length").flatMap(Int64.init)
        let claim = claim(request.path, offset: offset, declared: declared)
        let (upload, cut): (Upload, Int?)
        switch claim {
        case .failed(let status):
            return receiver(offset: offset, into: nil, room: 0, cut: nil) { _, _ in reply(.failed(status)) }
        case .refused(let outcome): return refuse(offset: offset, reply(outcome))
        case .claimed(let claimed, let claimedCut): (upload, cut) = (claimed, claimedCut)
        }
        let room = upload.length.map { $0 - upload.offset } ?? Int64.max
        // A cut at the body's end loses only the reply: dropped once the reply has begun, since a connection
        // closed before any byte of a reply ends as libcurl's "Empty reply from server", not a lost one.
        let losesReply = cut.map { count in declared.map { Int64(count) >= $0 } ?? false } ?? false
        let receiver = receiver(offset: offset, into: upload.file, room: room, cut: losesReply ? nil : cut) {
            [self] appender, ending in
            // A cut that kept the whole body still completes the upload: only the reply is lost.
            let whole = ending == .complete || (ending == .cut && appender.received == declared)
            let kept = whole || keepsInterruptedAppends
            if !kept { appender.discard() }
            let stored = advance(request.path, by: kept ? appender.stored : 0, completing: completes && whole)
            guard let stored, !appender.overflowed else { return reply(.rejected) }
            let answer = reply(.stored(stored, cut: ending != .complete || losesReply))
            guard losesReply else { return answer }
            var dropped = MockResponse(status: 200, text: "cut")
            dropped.headers = answer.headers
            return dropped.withFault(.disconnectMidBody)
        }
        // A file that can't be opened is refused before the body: nothing will end this append.
        if receiver.immediateReply != nil { _ = advance(request.path, by: 0, completing: false) }
        return receiver
    }

    /// What the head of an append is enough to decide.
    private enum Claim {
        /// A scripted failure: the body is read, and answered with this status.
        case failed(Int)
        /// Refused before the body.
        case refused(AppendOutcome)
        /// The upload is this append's until it ends (see ``Upload/isAppending``), with the cut scripted.
        case claimed(Upload, cut: Int?)
    }

    /// Takes the next scripted failure, else the upload at `path` for an append at `offset` of `declared`
    /// bytes: refused when there is none, when the offset isn't the server's, when the upload is complete or
    /// another append is being received (a conflict), or when the bytes don't fit (rejected).
    private func claim(_ path: String, offset: Int64?, declared: Int64?) -> Claim {
        state.withLock { state in
            if !state.failures.isEmpty { return .failed(state.failures.removeFirst()) }
            guard var upload = state.uploads[path] else { return .refused(.notFound) }
            guard offset == upload.offset, !upload.isComplete, !upload.isAppending else {
                return .refused(.conflict(upload))
            }
            let room = upload.length.map { $0 - upload.offset } ?? Int64.max
            if let limit = state.maxRequestBodySize, (declared ?? 0) > Int64(limit) {
                return .refused(.tooLarge)
            }
            guard (declared ?? 0) <= room else { return .refused(.rejected) }
            upload.isAppending = true
            state.uploads[path] = upload
            defer { state.cut = nil }
            return .claimed(upload, cut: state.cut)
        }
    }

    /// Ends the append to the upload at `path`, moving it forward by `count` bytes, complete when
    /// `completing`; what it became, `nil` when it was forgotten meanwhile.
    private func advance(_ path: String, by count: Int64, completing: Bool) -> Upload? {
        state.withLock { state in
            guard var upload = state.uploads[path] else { return nil }
            upload.isAppending = false
            upload.offset += count
            if completing {
                upload.isComplete = true
                upload.length = upload.offset
            }
            state.uploads[path] = upload
            return upload
        }
    }

    /// A receiver that appends to `file` (or only counts without one) and records the append once its body
    /// ends, however it ends, then calls `finish`.
    private func receiver(
        offset: Int64?, into file: URL?, room: Int64, cut: Int?,
        finish: @escaping (UploadAppender, MockBodyReceiver.Ending) -> MockResponse
    ) -> MockBodyReceiver {
        guard let appender = UploadAppender(file: file, room: room) else {
            return refuse(offset: offset, MockResponse(status: 500))
        }
        return MockBodyReceiver(
            cutsAfterBytes: cut, receive: appender.write,
            finish: { [self] ending in
                let append = UploadAppend(offset: offset ?? -1, length: Int(appender.received))
                state.withLock { $0.appends.append(append) }
                // Closed once `finish` has kept or thrown away the bytes, before the reply goes.
                defer { appender.close() }
                return finish(appender, ending)
            })
    }

    private func refuse(offset: Int64?, _ response: MockResponse) -> MockBodyReceiver {
        state.withLock { $0.appends.append(UploadAppend(offset: offset ?? -1, length: 0)) }
        return .reply(response)
    }

    /// An append whose body the server kept in memory (a handler installed without its body handler): the
    /// body goes through the same receiver; a cut keeps the first bytes and closes without a reply.
    func append(
        _ request: MockServerRequest, offset: Int64?, completes: Bool = false,
        reply: @escaping (AppendOutcome) -> MockResponse
    ) -> MockResponse {
        let receiver = receiveAppend(request, offset: offset, completes: completes, reply: reply)
        if let refusal = receiver.immediateReply { return refusal }
        let kept = request.body.prefix(receiver.cutsAfterBytes ?? request.body.count)
        receiver.receive(kept)
        guard receiver.cutsAfterBytes.map({ $0 > request.body.count }) ?? true else {
            _ = receiver.finish(.cut)
            return MockResponse(status: 500).withFault(.disconnectAfterRequest)
        }
        return receiver.finish(.complete)
    }

    /// `reply`, closing its connection while a cut is pending: the append to cut then starts on a fresh
    /// connection. libcurl sends a request again by itself, body rewound, when a connection it reused closes
    /// before any byte of the reply (and for an upload task's file, FoundationNetworking 6.3.1 stops the
    /// process in `seekInputStream`), which would hide the drop from the layer under test.
    func closingBeforeACut(_ reply: MockResponse) -> MockResponse {
        guard state.withLock({ $0.cut != nil }) else { return reply }
        var closing = reply
        closing.headers.append((name: "Connection", value: "close"))
        return closing
    }
}
