import Foundation
import XCTest

#if os(macOS) || os(Linux)
    /// The crash harness (`NetworkCrashHarness`, built beside the tests) running as a child process: the
    /// test reads the lines it writes and kills it with `SIGKILL` where it chooses.
    final class HarnessProcess: @unchecked Sendable {
        // @unchecked: `lines` and `ended` are guarded by `condition`; the process is used from the test's thread.
        private let process = Process()
        private let condition = NSCondition()
        private var lines: [String] = []
        private var ended = false

        /// The harness in the build folder the tests run from.
        static func executable() throws -> URL {
            let candidates = [
                Bundle(for: HarnessProcess.self).bundleURL.deletingLastPathComponent(),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                Bundle.main.bundleURL,
            ].map { $0.appendingPathComponent("NetworkCrashHarness") }
            guard
                let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
            else {
                throw XCTSkip(
                    "NetworkCrashHarness is not built beside the tests: run `swift build --build-tests`")
            }
            return found
        }

        init(_ arguments: [String]) throws {
            process.executableURL = try Self.executable()
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            let handle = output.fileHandleForReading
            Thread.detachNewThread { [self] in
                var pending = Data()
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending = Data(pending[(newline + 1)...])
                        condition.withLock {
                            lines.append(line)
                            condition.broadcast()
                        }
                    }
                }
                condition.withLock {
                    ended = true
                    condition.broadcast()
                }
            }
        }

        /// Waits until the harness wrote `line` (true), or ended or `timeout` passed without it (false).
        func wait(for line: String, timeout: TimeInterval = 60) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            return condition.withLock {
                while !lines.contains(line) {
                    if ended || !condition.wait(until: deadline) { return lines.contains(line) }
                }
                return true
            }
        }

        /// Every line so far.
        var output: [String] { condition.withLock { lines } }

        /// Kills the process with `SIGKILL` and waits for it to end and for every line it wrote.
        func kill() {
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let deadline = Date(timeIntervalSinceNow: 10)
            condition.withLock {
                while !ended, condition.wait(until: deadline) {}
            }
        }
    }
#endif
