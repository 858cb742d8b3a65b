import Foundation

extension MockResponse {
    /// Where a reply's body comes from: bytes held in memory, or a stream produced while the
    /// server writes, for bodies larger than memory or endless ones.
    ///
    /// ```swift
    /// // An endless body of zero bytes, sent chunked:
    /// server.enqueue(MockResponse(content: .repeating(0, count: nil)))
    /// // Ten lines produced on demand, declared with a Content-Length:
    /// server.enqueue(MockResponse(content: .stream(length: 70) {
    ///     var line = 0
    ///     return {
    ///         line += 1
    ///         return line <= 10 ? Data("line \(line - 1)\n".utf8) : nil
    ///     }
    /// }))
    /// ```
    public enum Body: Sendable {
        /// These bytes, held in memory.
        case data(Data)

        /// Bytes produced on demand, on the connection's thread, while the server writes them.
        ///
        /// `makeChunks` is called each time the reply is sent (never for a HEAD request or a
        /// status without a body) and returns the producer for that send: each call returns
        /// the next piece, or `nil` at the end; a producer that never returns `nil` makes an
        /// endless body. Each send gets its own producer, so its state needs no lock and a
        /// reply queued twice, or returned by a handler for several requests, starts over. The
        /// server stops calling it once the client closes the connection or the server stops;
        /// it cannot interrupt a producer that blocks.
        ///
        /// `length` is the body's size when known: it is sent as `Content-Length` unless the
        /// reply is chunked or gzip-encoded, and the stream is cut there. A stream that ends
        /// before a declared `Content-Length` leaves the reply short and the server closes the
        /// connection, like a server dying mid-body. `nil` means unknown: the reply is sent with
        /// `Transfer-Encoding: chunked`.
        case stream(length: Int?, makeChunks: @Sendable () -> () -> Data?)

        /// `count` copies of `byte`, produced 64 KiB at a time; `nil` makes the body endless.
        /// A negative count is an empty body.
        ///
        /// - Parameters:
        ///   - byte: The byte the body repeats.
        ///   - count: How many bytes in all; `nil` for an endless body.
        /// - Returns: A streamed body.
        public static func repeating(_ byte: UInt8, count: Int?) -> Body {
            let length = count.map { max(0, $0) }
            return .stream(length: length) {
                let piece = Data(repeating: byte, count: 64 * 1024)
                var left = length
                return {
                    guard let remaining = left else { return piece }
                    guard remaining > 0 else { return nil }
                    left = remaining - min(remaining, piece.count)
                    return remaining >= piece.count ? piece : piece.prefix(remaining)
                }
            }
        }
    }
}
