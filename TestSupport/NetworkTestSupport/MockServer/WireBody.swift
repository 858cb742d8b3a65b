import Foundation
import LoopbackHTTP

/// The bytes after a reply's head, made piece by piece as the connection writes them, so a
/// streamed body is never held whole: the stream's pieces are cut at its length, gzip-encoded
/// and chunk-framed on the way. Used by one connection's thread only.
struct WireBody {
    /// How a stream's bytes are delimited on the wire.
    enum Framing {
        /// Declared by `Content-Length`: a stream ending short leaves the reply short.
        case contentLength
        /// Chunked, in chunks of at most this many bytes (`nil`: one chunk per piece).
        case chunked(maxChunk: Int?)
    }

    private var bytes: [UInt8]?
    /// What ``MockResponse/Body/stream(length:makeChunks:)`` holds.
    typealias MakeChunks = @Sendable () -> () -> Data?

    // Plainly typed: the body never leaves its connection's thread.
    private var makeChunks: (() -> () -> Data?)?
    private var producer: (() -> Data?)?
    private var remaining: Int?
    private var gzip: GzipEncoder?
    private var framing = Framing.contentLength
    private var finished = false

    /// Whether a stream ended before the `Content-Length` it declared: the connection must close.
    private(set) var endedShort = false

    /// No body at all.
    static var empty: WireBody { WireBody(bytes: []) }

    /// Wire bytes already complete (framed as they will be sent).
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A stream of at most `length` bytes (`nil`: no limit), gzip-encoded when `gzip` is set,
    /// framed as `framing` says.
    init(
        stream makeChunks: @escaping MakeChunks, length: Int?, gzip: Bool, framing: Framing
    ) {
        self.makeChunks = makeChunks
        remaining = length.map { max(0, $0) }
        self.gzip = gzip ? GzipEncoder() : nil
        self.framing = framing
    }

    /// The next bytes to write, possibly empty while a stream's output is still held back;
    /// `nil` once the body is complete.
    mutating func next() -> [UInt8]? {
        if let ready = bytes {
            bytes = nil
            return ready.isEmpty ? nil : ready
        }
        guard makeChunks != nil, !finished else { return nil }
        guard let piece = nextPiece() else {
            finished = true
            let tail = gzip?.finish() ?? []
            guard case .chunked = framing else { return tail.isEmpty ? nil : tail }
            return ChunkedCoding.frame(tail, maxChunk: nil) + ChunkedCoding.end
        }
        let encoded = gzip?.compress(piece) ?? piece
        guard case .chunked(let maxChunk) = framing else { return encoded }
        return ChunkedCoding.frame(encoded, maxChunk: maxChunk)
    }

    /// The stream's next piece cut to the length left; `nil` at its end, where the producer is
    /// released at once (its captures may be what a test waits for).
    private mutating func nextPiece() -> [UInt8]? {
        if remaining == 0 {
            producer = nil
            return nil
        }
        if producer == nil { producer = makeChunks?() }
        guard let data = producer?() else {
            producer = nil
            if case .contentLength = framing, let remaining, remaining > 0 { endedShort = true }
            return nil
        }
        guard let left = remaining else { return [UInt8](data) }
        let piece = [UInt8](data.prefix(left))
        remaining = left - piece.count
        return piece
    }
}
