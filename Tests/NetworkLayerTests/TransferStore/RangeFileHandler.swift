import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit

/// Serves one file from disk, streamed (a 256 MiB file never sits in memory), with a strong `ETag` and
/// single `Range: bytes=N-` requests answered 206, and records where each GET started. MockServer's own
/// range support works on bodies held in memory.
final class RangeFileHandler: Sendable {
    let file: URL
    let length: Int
    static let entityTag = "\"big-v1\""
    private let starts = Locked<[Int]>([])
    private let served = Locked<[Int]>([])

    init(file: URL) throws {
        self.file = file
        length = Int(try BigFile.size(of: file))
    }

    /// Where each GET began: 0, or the `Range` start.
    var requestedStarts: [Int] { starts.withLock { $0 } }
    /// The bytes of the body each GET handed to its connection (at most a piece ahead of the socket).
    var servedBytes: [Int] { served.withLock { $0 } }

    func answer(_ request: MockServerRequest) -> MockResponse {
        var first = 0
        if let range = request.header("Range"), request.header("If-Range") == Self.entityTag,
            range.hasPrefix("bytes="), range.hasSuffix("-"),
            let asked = Int(range.dropFirst("bytes=".count).dropLast()), asked < length
        {
            first = asked
        }
        let start = first
        let index = starts.withLock { starts in
            starts.append(start)
            return starts.count - 1
        }
        served.withLock { $0.append(0) }
        let served = served
        var headers = [
            "ETag": Self.entityTag, "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream",
        ]
        if start > 0 { headers["Content-Range"] = "bytes \(start)-\(length - 1)/\(length)" }
        let file = file
        return MockResponse(
            status: start > 0 ? 206 : 200, headers: headers,
            content: .stream(length: length - start) {
                let handle = try? FileHandle(forReadingFrom: file)
                try? handle?.seek(toOffset: UInt64(start))
                return {
                    guard let chunk = try? handle?.read(upToCount: 256 * 1024), !chunk.isEmpty else {
                        try? handle?.close()
                        return nil
                    }
                    served.withLock { $0[index] += chunk.count }
                    return chunk
                }
            })
    }
}
