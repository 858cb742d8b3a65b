import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An upload's body as a ``Transfer`` sends it: an ``UploadBodyStream`` with the exact `Content-Length`,
/// a fresh one whenever libcurl rewinds, and the checks that a body was sent whole.
///
/// Why a stream, and why it is safe here. FoundationNetworking sends a body stream fast and with flat
/// memory (1.5–2.1 s per GB), but when libcurl has to send a request again (a kept-alive connection the
/// server had closed) it rewinds the body and, unless the session delegate hands over a new stream, sends
/// an exhausted one: an empty body answered with 200. The delegate answers that rewind with a fresh
/// stream over the whole body, and a retry after a 401 is a new attempt with a new stream. As a last
/// guard, a 2xx reply to a body that was not handed out whole fails the request.
///
/// On Apple platforms the body goes out in a form URLSession sends natively instead (a file or bytes, see
/// ``NativeUploadBody``), and URLSession itself sends it whole.
///
/// The stream is replaced on libcurl's thread and read on the delegate queue, hence ``Locked``; the
/// count of bytes sent and the native form are the delegate queue's.
final class BodySource: @unchecked Sendable {
    private let body: UploadBody
    private let progress: ProgressReporter?
    private let stream: Locked<UploadBodyStream?>
    private var sentBytes: Int64 = 0
    /// The body as URLSession sends it natively, once ``prepareNative()`` made it.
    private(set) var native: NativeUploadBody?

    init(_ body: UploadBody, progress: ProgressReporter?) {
        self.body = body
        self.progress = progress
        stream = Locked(nil)
    }

    /// Makes the native form of the body (see ``NativeUploadBody/prepare(_:)``), off the delegate queue;
    /// the transfer keeps it with ``adopt(_:)`` on the delegate queue.
    func prepareNative() -> Result<NativeUploadBody, URLError> {
        NativeUploadBody.prepare(body)
    }

    /// Sends the body in its native form from now on (delegate queue).
    func adopt(_ native: NativeUploadBody) {
        self.native = native
    }

    /// The transfer ended: a temporary file is removed.
    func discardNative() {
        native?.discard()
        native = nil
    }

    /// Gives `request` a fresh stream over the body (unless it goes out natively) and its exact length.
    func attach(to request: inout URLRequest) {
        if native == nil { request.httpBodyStream = newStream() }
        // The exact length, whatever an interceptor did to the header.
        request.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
        #if canImport(FoundationNetworking)
            // A blank Transfer-Encoding stops libcurl from adding `chunked` next to the Content-Length (both
            // would go out, and servers refuse that); libcurl sends no header for a blank value.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
        #endif
    }

    /// A new stream over the whole body, which replaces the one before.
    func newStream() -> InputStream {
        let fresh = body.makeStream()
        stream.withLock { $0 = fresh }
        return fresh
    }

    /// Body bytes went out. FoundationNetworking's running totals repeat values; the sum of the chunk
    /// sizes is exact, and a body sent twice (after a rewind) is counted once.
    func sent(_ bytes: Int64) {
        sentBytes = min(body.length, sentBytes + bytes)
        progress?.update(completed: sentBytes, expected: body.length)
    }

    /// The failure the request ends with, given the transport's `error` and the reply.
    func check(_ error: (any Error)?, response: URLResponse?) -> (any Error)? {
        let current = stream.withLock { $0 }
        // Sent natively, URLSession sends the body whole or fails.
        let delivered = native == nil ? current?.delivered ?? 0 : body.length
        // A file that changed while it was sent aborts the request; say so rather than libcurl's code.
        if error != nil, let failure = current?.streamError as? URLError { return failure }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard error == nil, (200..<300).contains(status) else { return error }
        guard delivered < body.length else {
            progress?.complete(completed: body.length, expected: body.length)
            return nil
        }
        let text =
            "The server answered before the whole body was sent (\(delivered) of \(body.length) bytes); "
            + "the upload is treated as failed."
        return URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: text])
    }
}
