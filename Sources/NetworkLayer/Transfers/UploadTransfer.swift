import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of an upload: a data task whose body is an ``UploadBodyStream`` with the exact
/// `Content-Length`, and whose (small) reply a ``DataTransfer`` collects.
///
/// Why a stream, and why it is safe here. FoundationNetworking sends a body stream fast and with flat
/// memory (1.5–2.1 s per GB), but when libcurl has to send a request again (a kept-alive connection the
/// server had closed) it rewinds the body and, unless the session delegate hands over a new stream, sends
/// an exhausted one: an empty body answered with 200. The delegate answers that rewind with a fresh
/// stream over the whole body (``newBodyStream()``), and a retry after a 401 is a new attempt with a new
/// stream. As a last guard, a 2xx reply to a body that was not handed out whole fails the request.
final class UploadTransfer: SessionTaskHandler, @unchecked Sendable {
    private let reply: DataTransfer
    private let body: UploadBody
    private let progress: ProgressReporter?
    // Guarded by `lock`: the stream is replaced on libcurl's thread, read on the delegate queue.
    private let lock = NSLock()
    private var stream: UploadBodyStream
    private var sentBytes: Int64 = 0

    init(reply: DataTransfer, body: UploadBody, stream: UploadBodyStream, progress: ProgressReporter?) {
        self.reply = reply
        self.body = body
        self.stream = stream
        self.progress = progress
    }

    var redirectPolicy: RedirectPolicy { reply.redirectPolicy }

    var isStopped: Bool { reply.isStopped }

    func start(_ task: URLSessionTask) {
        reply.start(task)
    }

    func receive(_ response: URLResponse) -> Bool {
        reply.receive(response)
    }

    func receive(_ data: Data) {
        reply.receive(data)
    }

    func redirected() {
        reply.redirected()
    }

    func declineChallenge() {
        reply.declineChallenge()
    }

    func sent(bodyBytes: Int64) {
        // FoundationNetworking's running totals repeat values; the sum of the chunk sizes is exact, and
        // a body sent twice (after a rewind) is counted once.
        let total = lock.withLock {
            sentBytes = min(body.length, sentBytes + bodyBytes)
            return sentBytes
        }
        progress?.update(completed: total, expected: body.length)
    }

    func newBodyStream() -> InputStream? {
        let fresh = body.makeStream()
        lock.withLock { stream = fresh }
        return fresh
    }

    func finish(with error: (any Error)?, response: URLResponse?) {
        let (delivered, streamFailure) = lock.withLock { (stream.delivered, stream.streamError as? URLError) }
        // A file that changed while it was sent aborts the request; say so rather than libcurl's code.
        if error != nil, let streamFailure { return reply.finish(with: streamFailure, response: response) }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard error == nil, (200..<300).contains(status), delivered < body.length else {
            if error == nil, (200..<300).contains(status) {
                progress?.complete(completed: body.length, expected: body.length)
            }
            return reply.finish(with: error, response: response)
        }
        let text =
            "The server answered before the whole body was sent (\(delivered) of \(body.length) bytes); "
            + "the upload is treated as failed."
        reply.finish(
            with: URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: text]),
            response: response)
    }

    /// Stops the transfer from any thread: the stop itself runs on the delegate queue.
    func stopFromAnyThread(because reason: URLError?) {
        reply.stopFromAnyThread(because: reason)
    }
}
