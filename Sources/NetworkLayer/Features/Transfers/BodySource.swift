import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An upload's body as a ``Transfer`` sends it: an ``UploadBodyStream`` with the exact `Content-Length`.
/// Why a fresh stream per rewind: libcurl re-sends an exhausted stream as an empty body answered 200
/// (see <doc:DownloadsAndUploads>); a 2xx to a body not handed out whole fails the request. The stream
/// is swapped on libcurl's thread and read on the delegate queue, hence ``Locked``.
final class BodySource: TransferBody, @unchecked Sendable {
    private let body: UploadBody
    private let progress: ProgressReporter?
    private let stream = Locked<UploadBodyStream?>(nil)
    private var sentBytes: Int64 = 0
    private var native: NativeUploadBody?

    init(_ body: UploadBody, progress: ProgressReporter?) {
        self.body = body
        self.progress = progress
    }

    /// Makes the native form of the body (it may write a temporary file): the body's own file when it is
    /// one whole file, its bytes when it has none, else a temporary file. The transfer reads it only once
    /// this returned, on its delegate queue.
    func prepareNative() -> URLError? {
        do {
            native = try nativeForm().get()
            return nil
        } catch {
            return error
        }
    }

    private func nativeForm() -> Result<NativeUploadBody, URLError> {
        if body.segments.count == 1, case .file(let url, 0, _) = body.segments[0] {
            return .success(.file(url, isTemporary: false))
        }
        var bytes = Data()
        for segment in body.segments {
            guard case .bytes(let data) = segment else {
                return NativeUploadBody.writeTemporaryFile(body).map { .file($0, isTemporary: true) }
            }
            bytes.append(data)
        }
        return .success(.data(bytes))
    }

    func discardNative() {
        native?.discard()
        native = nil
    }

    /// Native bytes go out as `httpBody`: a URLProtocol on Linux sees no body of an upload task made from
    /// bytes.
    func attach(to request: inout URLRequest, facts: PlatformFacts) -> URL? {
        var file: URL?
        switch native {
        case .file(let url, _)?: file = url
        case .data(let data)?: request.httpBody = data
        case nil: request.httpBodyStream = newStream()
        }
        // The exact length, whatever an interceptor did to the header.
        request.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
        if facts.chunksStreamsWithLength {
            // A blank Transfer-Encoding stops libcurl from adding `chunked` next to the Content-Length (both
            // would go out, and servers refuse that); libcurl sends no header for a blank value.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
        }
        return file
    }

    func newStream() -> InputStream? {
        let fresh = UploadBodyStream(body: body)
        stream.withLock { $0 = fresh }
        return fresh
    }

    /// Body bytes went out. FoundationNetworking's running totals repeat values; the sum of the chunk
    /// sizes is exact, and a body sent twice (after a rewind) is counted once.
    func sent(_ bytes: Int64) {
        sentBytes = min(body.length, sentBytes + bytes)
        progress?.update(completed: sentBytes, expected: body.length)
    }

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
