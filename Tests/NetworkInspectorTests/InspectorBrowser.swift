import Foundation
import XCTest

#if os(macOS) || os(Linux)

    /// A headless Chromium the browser tests start as a child process: Debian's `chromium` where `.ci/run`
    /// installs it, or the browser `NETWORK_INSPECTOR_BROWSER` names.
    struct InspectorBrowser {
        let executable: URL

        /// The browser, or an `XCTSkip` saying why there is none.
        static func find() throws -> InspectorBrowser {
            let environment = ProcessInfo.processInfo.environment
            let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
            let folders = (environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
            var candidates = folders.flatMap { folder in names.map { "\(folder)/\($0)" } }
            candidates += [
                "/Applications/Chromium.app/Contents/MacOS/Chromium",
                "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            ]
            if let named = environment["NETWORK_INSPECTOR_BROWSER"] { candidates.insert(named, at: 0) }
            guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else {
                throw XCTSkip(
                    "The page's browser test needs a browser, and there is no chromium: none of "
                        + "\(names.joined(separator: ", ")) is on PATH (.ci/run installs Debian's chromium)")
            }
            let browser = InspectorBrowser(executable: URL(fileURLWithPath: path))
            // A snap shim or a broken install answers, but not as a browser.
            let probe = try browser.run(["--version"], timeout: 60)
            guard probe.status == 0 else {
                throw XCTSkip("\(path) does not run, so no chromium: exit \(probe.status), \(probe.errors)")
            }
            return browser
        }

        /// The page at `url` as the browser serialises its DOM after the load event.
        func dumpDOM(_ url: URL, virtualTime: Int? = nil) throws -> String {
            var arguments = ["--dump-dom"]
            // With a virtual-time budget, the browser runs the page's timers and network for that long
            // (in virtual milliseconds) before dumping: what live updates need to arrive.
            if let virtualTime { arguments.append("--virtual-time-budget=\(virtualTime)") }
            let result = try run(arguments + [url.absoluteString], timeout: 120)
            guard result.status == 0, !result.output.isEmpty else {
                throw BrowserFailure(description: "chromium exit \(result.status): \(result.errors)")
            }
            return result.output
        }

        /// A PNG of the page at `url`, `width` by `height` CSS pixels.
        func screenshot(_ url: URL, to file: URL, width: Int, height: Int) throws {
            let arguments = [
                "--screenshot=\(file.path)", "--window-size=\(width),\(height)", url.absoluteString,
            ]
            let result = try run(arguments, timeout: 120)
            guard result.status == 0 else {
                throw BrowserFailure(description: "chromium exit \(result.status): \(result.errors)")
            }
        }

        struct BrowserFailure: Error, CustomStringConvertible {
            let description: String
        }

        /// Runs the browser headless with its own profile folder, waiting at most `timeout` seconds.
        private func run(_ arguments: [String], timeout: TimeInterval) throws
            -> (status: Int32, output: String, errors: String)
        {
            let profile = FileManager.default.temporaryDirectory
                .appendingPathComponent("inspector-browser-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: profile) }
            let process = Process()
            process.executableURL = executable
            process.arguments =
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--no-default-browser-check",
                    "--disable-extensions", "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)",
                ] + arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            let ended = XCTestExpectation(description: "chromium ended")
            process.terminationHandler = { _ in ended.fulfill() }
            // Both pipes are drained while the browser runs, so a full pipe cannot stall it.
            let outputData = Drained(output.fileHandleForReading)
            let errorData = Drained(errors.fileHandleForReading)
            try process.run()
            if XCTWaiter().wait(for: [ended], timeout: timeout) != .completed {
                process.terminate()
                process.waitUntilExit()
                throw BrowserFailure(description: "chromium did not end within \(Int(timeout)) s")
            }
            let errorText = String(decoding: errorData.wait(), as: UTF8.self)
            return (process.terminationStatus, String(decoding: outputData.wait(), as: UTF8.self), errorText)
        }
    }

    /// Everything a pipe delivers until its end, read on a thread of its own.
    private final class Drained: @unchecked Sendable {
        // @unchecked: `data` is written by the reading thread before `done` is signalled, and read after.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        /// What the pipe delivered; empty if it is still open after 30 seconds (a browser's helper
        /// process holding it), rather than waiting for ever.
        func wait() -> Data {
            done.wait(timeout: .now() + 30) == .success ? data : Data()
        }
    }

#endif
