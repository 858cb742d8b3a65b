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

/// What ``TusHandler`` and ``ResumableUploadHandler`` share: the uploads, each stored in a file of its own,
/// and the fault script (an append cut, a 5xx once, uploads forgotten). The protocols differ only in how
/// they spell requests and replies. The lock is never held while a file is written.
final class UploadLedger: Sendable {
    struct Upload {
        let file: URL
        /// The length announced, when one was.
        var length: Int64?
        var offset: Int64
        var isComplete = false
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
        /// Stored; `cut` when the connection is to drop mid-reply.
        case stored(Upload, cut: Bool)
    }

    private struct State {
        var uploads: [String: Upload] = [:]
        var created = 0
        var cut: Int?
        var failures: [Int] = []
        var appends: [UploadAppend] = []
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

    /// Appends `request`'s body at `offset` to the upload at its path, by the fault script; `completes`
    /// when the client says this is the last part.
    func append(_ request: MockServerRequest, offset: Int64?, completes: Bool = false) -> AppendOutcome {
        let (upload, cut, failure) = state.withLock { state in
            state.appends.append(UploadAppend(offset: offset ?? -1, length: request.bodyLength))
            let failure = state.failures.isEmpty ? nil : state.failures.removeFirst()
            let cut = failure == nil ? state.cut : nil
            if cut != nil { state.cut = nil }
            return (state.uploads[request.path], cut, failure)
        }
        if let failure { return .failed(failure) }
        guard var upload else { return .notFound }
        guard offset == upload.offset, !upload.isComplete else { return .conflict(upload) }
        let kept = request.body.prefix(cut ?? request.body.count)
        guard upload.length.map({ upload.offset + Int64(kept.count) <= $0 }) ?? true,
            let handle = try? FileHandle(forWritingTo: upload.file)
        else { return .rejected }
        handle.seekToEndOfFile()
        handle.write(kept)
        handle.closeFile()
        upload.offset += Int64(kept.count)
        // A cut that kept the whole body still completes the upload: only the reply is lost.
        if completes, kept.count == request.body.count {
            upload.isComplete = true
            upload.length = upload.offset
        }
        let stored = upload
        state.withLock { $0.uploads[request.path] = stored }
        return .stored(stored, cut: cut != nil)
    }

    /// The reply to a cut append: dropped once the reply has begun, since a connection closed before any
    /// byte of a reply makes libcurl send a request again by itself on a reused connection (see
    /// ``MockResponse/Fault``), which would hide what the layer does.
    static func cutReply(headers: [String: String]) -> MockResponse {
        MockResponse(status: 200, headers: headers, text: "cut").withFault(.disconnectMidBody)
    }
}
