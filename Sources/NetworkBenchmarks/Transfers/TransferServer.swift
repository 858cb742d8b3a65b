import Foundation
import NetworkTestSupport

/// The embedded server the transfer workloads use, whatever `--base-url` says: `GET /blob/<bytes>`
/// streams that many bytes (with a `Content-Length` and an `ETag`; `?rate=<MB/s>` throttles it), and `POST`/`PUT /upload` reads a body
/// without keeping it and answers `{"length": <bytes received>}`.
enum TransferServer {
    static func start() throws -> MockServer {
        let server = MockServer(maxRequestBodySize: Int(Int32.max) * 4, discardsRequestBodies: true) {
            request in
            if request.method == "GET", request.path.hasPrefix("/blob/"),
                let size = Int(request.path.dropFirst(6))
            {
                let reply = MockResponse(
                    headers: ["ETag": "\"blob-\(size)\"", "Content-Type": "application/octet-stream"],
                    content: .repeating(0x61, count: size))
                // `?rate=N`: about N MB/s, N/100 MB every 10 ms.
                guard let rate = request.queryValue("rate").flatMap(Int.init), rate > 0 else { return reply }
                return reply.throttled(bytes: rate * 10_000, every: 0.01)
            }
            if request.path == "/upload" { return .json(raw: "{\"length\":\(request.bodyLength)}") }
            return MockResponse(status: 404)
        }
        try server.start()
        return server
    }
}

/// The reply of `/upload`.
struct UploadReceipt: Codable, Sendable {
    let length: Int
}

/// Peak resident memory while something runs, sampled every 2 ms on a thread of its own.
final class MemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let baseline: Int

    private init() {
        baseline = ProcessStats.residentBytes() ?? 0
        peak = baseline
    }

    /// Runs `body`, which returns once its work is done, and returns how far resident memory rose above
    /// where it was before, at most, in bytes.
    static func peakGrowth(during body: () -> Void) -> Int {
        let sampler = MemorySampler()
        let thread = Thread { sampler.sample() }
        thread.start()
        body()
        return sampler.stop()
    }

    private func sample() {
        while lock.withLock({ running }) {
            let now = ProcessStats.residentBytes() ?? 0
            lock.withLock { peak = max(peak, now) }
            usleep(2_000)
        }
    }

    private func stop() -> Int {
        let now = ProcessStats.residentBytes() ?? 0
        return lock.withLock {
            running = false
            return max(peak, now) - baseline
        }
    }
}

/// Writes a file of `size` bytes, a megabyte at a time, so making it costs no memory.
func writeTestFile(_ url: URL, size: Int) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let piece = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    var left = size
    while left > 0 {
        let count = min(left, piece.count)
        try handle.write(contentsOf: piece.prefix(count))
        left -= count
    }
}
