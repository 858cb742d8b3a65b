import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fulfils `expectation` once the server lets go of a stream's producer, which it does when it
/// stops writing that body: the body ended, the client closed, or the server stopped.
/// `@unchecked Sendable`: its only property is a constant, and `fulfill()` is thread-safe.
final class ReleaseProbe: @unchecked Sendable {
    let expectation: XCTestExpectation

    init(_ expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    /// `body` (a stream) whose every producer holds a token that fulfils the expectation when freed.
    func tracking(_ body: MockResponse.Body) -> MockResponse.Body {
        guard case .stream(let length, let makeChunks) = body else { return body }
        return .stream(length: length) { [self] in
            let token = ReleaseToken(probe: self)
            let next = makeChunks()
            return { withExtendedLifetime(token) { next() } }
        }
    }
}

private final class ReleaseToken {
    let probe: ReleaseProbe

    init(probe: ReleaseProbe) { self.probe = probe }

    deinit { probe.expectation.fulfill() }
}

/// Counts calls from the server's threads; thread-safe through its lock.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0

    func increment() { lock.withLock { calls += 1 } }
    var count: Int { lock.withLock { calls } }
}

/// Inflates gzip data with a decoder outside this process: `gzip -dc`, else python3's zlib
/// (both check the CRC-32 and size trailer). Skips the test when there is neither.
enum ExternalGunzip {
    private struct Decoder {
        var executable: String
        var arguments: [String]
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static var decoder: Decoder? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        func find(_ name: String) -> String? {
            directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let inflate =
            "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read(), 31))"
        return find("gzip").map { Decoder(executable: $0, arguments: ["-dc"]) }
            ?? find("python3").map { Decoder(executable: $0, arguments: ["-c", inflate]) }
    }

    /// What the external decoder makes of `data`; throws when it rejects it.
    static func inflate(_ data: Data) throws -> Data {
        #if os(macOS) || os(Linux)
            guard let decoder = Self.decoder else { throw XCTSkip("neither gzip nor python3 is installed") }
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("mockserver-\(UUID().uuidString).gz")
            try data.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return try run(decoder, on: file)
        #else
            throw XCTSkip("Process is unavailable on iOS, tvOS and watchOS")
        #endif
    }

    #if os(macOS) || os(Linux)
        private static func run(_ decoder: Decoder, on file: URL) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: decoder.executable)
            process.arguments = decoder.arguments + [file.path]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Read before waiting, or a full pipe would block the decoder forever.
            let inflated = output.fileHandleForReading.readDataToEndOfFile()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw Failure(
                    description: "\(decoder.executable) failed: \(String(decoding: message, as: UTF8.self))")
            }
            return inflated
        }
    #endif
}

/// Reads one reply through URLSession until `limit` body bytes (inflated, for gzip) have
/// arrived, checking each is `expected`, then cancels the task. URLSession calls it on its
/// own queue; the lock guards the counters.
final class PartialReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private let expected: UInt8
    private var received = 0
    private var wrong = 0
    private var finished = false
    private var failure: Error?
    /// Fulfilled when `limit` bytes arrived, or the task ended before that.
    let done: XCTestExpectation

    init(limit: Int, expected: UInt8, done: XCTestExpectation) {
        self.limit = limit
        self.expected = expected
        self.done = done
    }

    /// Bytes received, bytes that were not `expected`, and the error if the task ended early.
    var outcome: (received: Int, wrong: Int, failure: Error?) {
        lock.withLock { (received, wrong, failure) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let expected = self.expected
        let mismatches = data.withUnsafeBytes { bytes in
            var count = 0
            for byte in bytes where byte != expected { count += 1 }
            return count
        }
        let reachedLimit = lock.withLock { () -> Bool in
            received += data.count
            wrong += mismatches
            guard received >= limit, !finished else { return false }
            finished = true
            return true
        }
        if reachedLimit {
            dataTask.cancel()
            done.fulfill()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let endedEarly = lock.withLock { () -> Bool in
            guard !finished else { return false }
            finished = true
            failure = error
            return true
        }
        if endedEarly { done.fulfill() }
    }
}

extension XCTestCase {
    /// Reads `url` with URLSession until `limit` body bytes arrived, then cancels; returns what
    /// `PartialReader` saw.
    func readPartially(
        _ url: URL?, limit: Int, expected: UInt8, timeout: TimeInterval = 30
    ) throws -> (received: Int, wrong: Int, failure: Error?) {
        let reader = PartialReader(
            limit: limit, expected: expected, done: expectation(description: "read \(limit) bytes"))
        let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: try XCTUnwrap(url)).resume()
        wait(for: [reader.done], timeout: timeout)
        return reader.outcome
    }
}

/// Deterministic bytes that do not compress: a linear congruential generator's high bytes.
func noise(count: Int, seed: UInt32 = 1) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

extension MockResponse.Body {
    /// A finite stream handing out `bytes` in pieces of the given sizes, cycling through them.
    static func pieces(of bytes: [UInt8], sizes: [Int], declaringLength: Bool) -> MockResponse.Body {
        let data = Data(bytes)
        return .stream(length: declaringLength ? data.count : nil) {
            var offset = 0
            var turn = 0
            return {
                guard offset < data.count else { return nil }
                let size = sizes[turn % sizes.count]
                turn += 1
                defer { offset = min(data.count, offset + size) }
                return data.subdata(in: offset..<min(data.count, offset + size))
            }
        }
    }
}
