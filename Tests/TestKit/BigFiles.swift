import Foundation
import XCTest

// Files of hundreds of megabytes for the transfer tests: written in chunks from a seeded generator, so no
// test holds one in memory, and hashed by the system's tool, which is faster than a debug build's SHA-256.

public enum BigFile {
    /// Writes `size` pseudo-random bytes (the same bytes for the same `seed`) to `url`, one mebibyte at a
    /// time, and returns `url`.
    @discardableResult
    public static func make(at url: URL, size: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) throws -> URL {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state = seed == 0 ? 1 : seed
        var written = 0
        let chunk = 1 << 20
        var words = [UInt64](repeating: 0, count: chunk / 8)
        while written < size {
            for index in words.indices {
                // xorshift64: fast, and any seed but 0 gives a long sequence.
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
            let count = min(chunk, size - written)
            let bytes = words.withUnsafeBytes { Data($0.prefix(count)) }
            try handle.write(contentsOf: bytes)
            written += count
        }
        return url
    }

    /// The SHA-256 of the file at `url`, in lowercase hex, from `sha256sum` (Linux) or `shasum -a 256`
    /// (macOS).
    public static func sha256(of url: URL) throws -> String {
        let process = Process()
        let tools = ["/usr/bin/sha256sum": [String](), "/usr/bin/shasum": ["-a", "256"]]
        guard
            let (tool, options) = tools.first(where: { FileManager.default.isExecutableFile(atPath: $0.key) })
        else { throw XCTSkip("neither sha256sum nor shasum is installed") }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = options + [url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let digest = text.split(separator: " ").first else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return String(digest)
    }

    /// The size of the file at `url`, in bytes.
    public static func size(of url: URL) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
