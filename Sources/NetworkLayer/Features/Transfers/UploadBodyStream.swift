import Foundation

/// A stream over an ``UploadBody``: files read piece by piece, so a 1 GB file costs one 64 KB buffer. Its
/// one client (FoundationNetworking's thread) owns the position and the file, so no lock is held while the
/// disk is read; what the delegate queue reads is ``Locked``. It yields exactly the body's length: a
/// file that shrank makes `read` fail, so a short body is never sent as whole.
final class UploadBodyStream: InputStream {
    private let segments: [UploadBody.Segment]
    private let length: Int64
    // Owned by the stream's client. The file is closed by dropping it.
    private var index = 0
    private var offset: Int64 = 0
    private var file: POSIXFile?
    private let shared = Locked(Shared())

    private struct Shared {
        var status = Stream.Status.notOpen
        var failure: (any Error)?
        var delivered: Int64 = 0
    }

    init(body: UploadBody) {
        segments = body.segments
        length = body.length
        super.init(data: Data())
    }

    var delivered: Int64 { shared.withLock { $0.delivered } }

    override func open() {
        shared.withLock {
            if $0.status == .notOpen { $0.status = .open }
        }
    }

    override func close() {
        file = nil
        shared.withLock { $0.status = .closed }
    }

    override var streamStatus: Stream.Status { shared.withLock { $0.status } }

    override var streamError: (any Error)? { shared.withLock { $0.failure } }

    /// `true` until every byte is out, so a failure surfaces in `read` rather than as an early end.
    override var hasBytesAvailable: Bool {
        shared.withLock { $0.status == .open && $0.delivered < length }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        let status = streamStatus
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        var total = 0
        while total < maxLength, index < segments.count {
            switch fill(buffer + total, upTo: maxLength - total) {
            case .some(let count): total += count
            case nil: return -1
            }
        }
        let atEnd = index == segments.count && total == 0
        shared.withLock { shared in
            shared.delivered += Int64(total)
            if atEnd { shared.status = .atEnd }
        }
        return total
    }

    /// Copies from the current segment; the count copied, or `nil` on failure.
    private func fill(_ buffer: UnsafeMutablePointer<UInt8>, upTo count: Int) -> Int? {
        switch segments[index] {
        case .bytes(let data):
            let start = Int(offset)
            let copied = min(count, data.count - start)
            data.copyBytes(to: buffer, from: data.startIndex + start..<data.startIndex + start + copied)
            advance(by: copied, segmentLength: Int64(data.count))
            return copied
        case .file(let url, let start, let segmentLength):
            if file == nil {
                switch POSIXFile.open(url, flags: O_RDONLY).flatMap({ $0.seek(to: start + offset) }) {
                case .success(let opened): file = opened
                case .failure(let error): return fail(url, "could no longer be read: \(error.reason)")
                }
            }
            let wanted = Int(min(Int64(count), segmentLength - offset))
            switch file?.read(into: buffer, count: wanted) ?? .success(0) {
            case .failure(let error):
                return fail(url, "could no longer be read: \(error.reason)")
            case .success(0):
                return fail(url, "became shorter while it was being sent")
            case .success(let read):
                advance(by: read, segmentLength: segmentLength)
                return read
            }
        }
    }

    private func advance(by count: Int, segmentLength: Int64) {
        offset += Int64(count)
        guard offset >= segmentLength else { return }
        file = nil
        index += 1
        offset = 0
    }

    private func fail(_ url: URL, _ reason: String) -> Int? {
        let error = URLError(
            .noPermissionsToReadFile, file: url, "The file to upload, \(url.path), \(reason).")
        file = nil
        shared.withLock { shared in
            shared.failure = error
            shared.status = .error
        }
        return nil
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
