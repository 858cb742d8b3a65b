import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A shell and curl run these tests: macOS and Linux only (Process is unavailable on iOS, tvOS, watchOS).
#if os(macOS) || os(Linux)

    /// `NetworkLogger.curlCommand(for:)` is a command a POSIX shell reads back into the same arguments, and
    /// that curl sends as the same request.
    final class CurlCommandTests: XCTestCase {
        private let awkwardBody =
            "@notes.txt {\"text\": \"it's $HOME `ls` \\\\ \\\"q\\\"\"}\nline 2 'single' \"double\""
        private let awkwardHeader = "it's \"quoted\" $HOME `ls` \\ ; echo pwned"

        private func awkwardRequest(_ url: URL) -> URLRequest {
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue(awkwardHeader, forHTTPHeaderField: "X-Quote")
            request.setValue("Bearer hidden", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(awkwardBody.utf8)
            return request
        }

        /// Runs `command` with `/bin/sh -c`; returns its standard output and exit status.
        private func shell(_ command: String) throws -> (output: Data, status: Int32) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (data, process.terminationStatus)
        }

        func testTheShellReadsBackEveryArgumentIncludingQuotes() throws {
            let url = try XCTUnwrap(URL(string: "http://127.0.0.1:9/it's/here?q=o'k&token=t"))
            let command = NetworkLogger().curlCommand(for: awkwardRequest(url))
            XCTAssertTrue(command.hasPrefix("curl "), command)

            // printf prints each argument followed by a NUL, so arguments with line breaks come back whole.
            let echo = "printf '%s\\0' " + command.dropFirst("curl ".count)
            let (output, status) = try shell(echo)
            XCTAssertEqual(status, 0, command)
            let arguments = output.split(separator: 0, omittingEmptySubsequences: false).dropLast()
                .map { String(decoding: $0, as: UTF8.self) }

            XCTAssertEqual(
                arguments,
                [
                    "-X", "PUT", "http://127.0.0.1:9/it's/here?q=o'k&token=<redacted>",
                    "-H", "Authorization: <redacted>",
                    "-H", "Content-Type: text/plain; charset=utf-8",
                    "-H", "X-Quote: \(awkwardHeader)",
                    "--data-raw", awkwardBody,
                ], command)
        }

        func testAGetHasNoMethodFlagAndABinaryBodyIsNotPasted() throws {
            let url = try XCTUnwrap(URL(string: "http://127.0.0.1:9/blob"))
            XCTAssertEqual(
                NetworkLogger().curlCommand(for: URLRequest(url: url)), "curl 'http://127.0.0.1:9/blob'")

            var post = URLRequest(url: url)
            post.httpMethod = "POST"
            post.httpBody = Data([0xFF, 0xFE, 0x00, 0x01])
            let command = NetworkLogger().curlCommand(for: post)
            XCTAssertTrue(command.hasSuffix("# 4 bytes of binary data"), command)
            let (output, status) = try shell("printf '%s\\0' " + command.dropFirst("curl ".count))
            XCTAssertEqual(status, 0, command)
            XCTAssertEqual(
                output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) },
                ["-X", "POST", "http://127.0.0.1:9/blob", "--data-binary", "@-"])
        }

        /// Regression: the body went after `--data-binary`, which reads a body starting with `@` as the name
        /// of a file to send instead.
        func testCurlSendsTheSameRequestAgain() throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
                throw XCTSkip("curl is not installed")
            }
            let server = MockServer()
            try server.start()
            defer { server.stop() }
            server.enqueue(MockResponse(status: 204))
            let url = try XCTUnwrap(server.url("/it's/here?q=o'k"))
            let command = NetworkLogger().curlCommand(for: awkwardRequest(url))

            let (_, status) = try shell(command + " --silent --max-time 10 --output /dev/null")
            XCTAssertEqual(status, 0, command)
            let request = try XCTUnwrap(server.takeRequest(timeout: 5))
            XCTAssertEqual(request.method, "PUT")
            XCTAssertEqual(request.target, "/it's/here?q=o'k")
            XCTAssertEqual(request.header("X-Quote"), awkwardHeader)
            XCTAssertEqual(request.header("Content-Type"), "text/plain; charset=utf-8")
            XCTAssertEqual(request.header("Authorization"), "<redacted>")
            XCTAssertEqual(request.bodyText, awkwardBody)
        }
    }

#endif
