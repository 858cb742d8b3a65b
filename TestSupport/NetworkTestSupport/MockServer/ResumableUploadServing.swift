import Foundation

/// What ``TusHandler`` and ``ResumableUploadHandler`` share: the stored uploads, the appends received, and
/// the faults and limits to script. The protocols differ only in how they spell requests and replies, so
/// each setting is written once, here, and both handlers have it.
public protocol ResumableUploadServing: AnyObject, Sendable {
    /// The uploads and the fault script behind the handler; read through the members below.
    var ledger: UploadLedger { get }

    /// Answers a request whose body the server read whole: creation, `HEAD`, the protocol's others, and
    /// an append without ``bodyHandler``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    func answer(_ request: MockServerRequest) -> MockResponse

    /// Takes an append (`PATCH`) as its body arrives, writing it into the upload's file.
    ///
    /// - Parameter request: The append, its body still to come.
    /// - Returns: How the body is taken, or the reply refusing it.
    func receiveAppend(_ request: MockServerRequest) -> MockBodyReceiver
}

extension ResumableUploadServing {
    /// What to install as ``MockServer/handler``: answers creation, `HEAD` and the protocol's other
    /// requests (and an append whose body the server kept in memory, without ``bodyHandler``).
    public var handler: MockServer.Handler {
        { [self] request in ledger.closingBeforeACut(answer(request)) }
    }

    /// What to install as ``MockServer/bodyHandler``: takes each append (`PATCH`) as it arrives, writing its
    /// body into the upload's file, so the server holds no upload in memory.
    public var bodyHandler: MockServer.BodyHandler {
        { [self] request in request.method == "PATCH" ? receiveAppend(request) : nil }
    }

    /// Where the uploads are stored, one file each; removed by ``removeStoredFiles()``.
    public var directory: URL { ledger.directory }

    /// The stored file of each upload not deleted, in the order they were created.
    public var storedFiles: [URL] { ledger.storedFiles }

    /// Every append received, in order: what a client resumed from, and what it sent again.
    public var appends: [UploadAppend] { ledger.appends }

    /// Closes the connection after the first `count` bytes of the next append's body, without a reply: those
    /// bytes are kept, and the next `HEAD` reports them. A cut at the body's length loses only the reply.
    ///
    /// - Parameter count: How many bytes reach the upload.
    public func cutNextAppend(afterBytes count: Int) {
        ledger.cutNextAppend(afterBytes: count)
    }

    /// Answers the next append with `status` (503 by default) once its body has arrived, storing nothing of it.
    ///
    /// - Parameter status: A 5xx status, or a 4xx such as a `409` or `403` refusing the offset.
    public func failNextAppend(status: Int = 503) {
        ledger.failNextAppend(status: status)
    }

    /// The largest append (`PATCH`) body taken; a larger one is answered `413` before its body is read,
    /// storing nothing, as nginx's `client_max_body_size` (1 MB by default) and tussi's request limit
    /// (10 MB) answer. `nil` (the default): any size.
    public var maxRequestBodySize: Int? {
        get { ledger.maxRequestBodySize }
        set { ledger.maxRequestBodySize = newValue }
    }

    /// Whether the bytes of an append cut or dropped before its body ended are kept, the next `HEAD`
    /// reporting them (`true`, the default: tusd), or thrown away, the offset left where the append began
    /// (`false`: servers such as tussi and asgi-tus, which store an append only once it arrived whole). A
    /// cut that loses only the reply keeps the append either way.
    public var keepsInterruptedAppends: Bool {
        get { ledger.keepsInterruptedAppends }
        set { ledger.keepsInterruptedAppends = newValue }
    }

    /// Forgets every upload, its stored file deleted: its offset and appends are then answered 404.
    public func forgetUploads() {
        ledger.forgetUploads()
    }

    /// Deletes ``directory`` and everything in it.
    public func removeStoredFiles() {
        ledger.removeStoredFiles()
    }
}

extension MockServer {
    /// Installs `uploads` as ``handler`` and ``bodyHandler``, and returns it.
    func serve<Uploads: ResumableUploadServing>(_ uploads: Uploads) -> Uploads {
        handler = uploads.handler
        bodyHandler = uploads.bodyHandler
        return uploads
    }
}
