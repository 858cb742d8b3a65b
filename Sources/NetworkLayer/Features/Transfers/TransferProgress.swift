/// How far a download or an upload has come, as its progress handler receives it.
///
/// The handler runs on the layer's callback queue, at most about 30 times a second, one call at a time.
/// `completedBytes` only grows, and the last call, made just before the success handler, reports every
/// byte. Every call has returned before the success or error handler begins, and none comes after it.
public struct TransferProgress: Sendable, Equatable {
    /// The bytes moved so far. A resumed download counts the bytes it already had on disk.
    public let completedBytes: Int64
    /// The bytes there are in all, when known; `nil` when the server did not say, or said only the
    /// length on the wire (a chunked or gzip-encoded reply).
    public let expectedBytes: Int64?

    /// Creates a progress report; test doubles use it to script progress.
    ///
    /// - Parameters:
    ///   - completedBytes: The bytes transferred so far.
    ///   - expectedBytes: The bytes in all, or `nil` when unknown.
    public init(completedBytes: Int64, expectedBytes: Int64?) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// The share done, from 0 to 1; `nil` when ``expectedBytes`` is unknown. An empty transfer is 1.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, max(0, Double(completedBytes) / Double(expectedBytes)))
    }
}
