extension MockResponse {
    /// How the server encodes a reply's body on the wire (the HTTP content coding).
    public enum ContentEncoding: Sendable, Equatable {
        /// The body as is. Scripted `Content-Encoding` fields are sent unchanged, so a test can
        /// also claim an encoding the body does not have.
        case identity
        /// Compressed on the fly with gzip (RFC 1952), replacing any scripted
        /// `Content-Encoding` field with `Content-Encoding: gzip`. A body in memory is compressed
        /// before sending and keeps a `Content-Length` (of the compressed bytes); a stream is
        /// compressed piece by piece and sent chunked. Long runs of one byte shrink about 1000
        /// times, so a few hundred KB can inflate to gigabytes.
        case gzip
    }
}
