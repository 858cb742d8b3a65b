/// How far a download or an upload has come, as its progress handler receives it.
///
/// It runs on the callback queue, at most about 30 times a second, one call at a time; `completedBytes`
/// only grows, the last call (just before the success handler) reports every byte, and no call runs
/// once the success or error handler has begun.
public struct TransferProgress: Sendable, Equatable {
    /// The bytes moved so far. A resumed download counts the bytes it already had on disk.
    public let completedBytes: Int64
    /// The bytes in all; `nil` when the server didn't say, or gave only the wire length (chunked or gzip).
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
