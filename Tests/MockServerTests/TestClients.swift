import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a URLSession request ended with.
struct FetchResult {
    var data = Data()
    var response: HTTPURLResponse?
    var error: URLError?
    var elapsed: TimeInterval = 0

    var status: Int { response?.statusCode ?? -1 }
    var text: String { String(decoding: data, as: UTF8.self) }
    func header(_ name: String) -> String? { response?.value(forHTTPHeaderField: name) }
}

/// Holds a completion's result until the waiting test reads it; the lock makes the
/// hand-over between URLSession's queue and the test thread safe.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = FetchResult()
    var value: FetchResult {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

enum TestSessions {
    /// An ephemeral session allowing 64 connections per host; each test class makes one.
    static func make() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }
}

extension XCTestCase {
    /// Starts a new server, stopped again at the end of the test.
    func startedServer(maxRequestBodySize: Int = 16 * 1024 * 1024) throws -> MockServer {
        let server = MockServer(maxRequestBodySize: maxRequestBodySize)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// Sends one request with `session` and waits for its outcome.
    func fetch(
        _ url: URL?, with session: URLSession, method: String = "GET", headers: [String: String] = [:],
        body: Data? = nil, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line
    ) -> FetchResult {
        guard let url else {
            XCTFail("invalid URL", file: file, line: line)
            return FetchResult()
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let box = ResultBox()
        let done = expectation(description: "\(method) \(url)")
        let start = Date()
        session.dataTask(with: request) { data, response, error in
            box.value = FetchResult(
                data: data ?? Data(), response: response as? HTTPURLResponse, error: error as? URLError,
                elapsed: Date().timeIntervalSince(start))
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: timeout + 10)
        return box.value
    }
}

/// A blocking TCP client for bytes URLSession would never send.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds of silence.
    init(port: Int, timeout: TimeInterval = 5) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = RawClient.loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { socketSend(fd, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Reads more bytes into the buffer; `false` at end of stream, on error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// Everything until the server closes the connection (or the read timeout passes).
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closed the connection: end of stream or a reset, rather than
    /// data or the read timeout.
    func serverClosed() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads one response's status line and header section, leaving its body unread.
    func readHead() -> RawResponse? {
        let separator = Array("\r\n\r\n".utf8)
        var end: Int?
        var searchFrom = 0
        while end == nil {
            end = buffer.indices[searchFrom...].dropLast(3).first {
                buffer[$0..<$0 + 4].elementsEqual(separator)
            }
            searchFrom = max(0, buffer.count - 3)
            if end == nil, !fill() { return nil }
        }
        guard let headEnd = end else { return nil }
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, fieldLines: lines, body: [])
    }

    /// Reads and drops up to `count` bytes of whatever follows (body and framing alike);
    /// how many arrived before the stream ended or fell silent.
    func discard(_ count: Int) -> Int {
        var dropped = 0
        while dropped < count {
            if buffer.isEmpty, !fill() { break }
            let taken = min(buffer.count, count - dropped)
            buffer.removeFirst(taken)
            dropped += taken
        }
        return dropped
    }

    /// Reads one response; its body is framed by Content-Length or chunked coding, and
    /// there is none when `hasBody` is false (HEAD, 204, 304).
    func readResponse(hasBody: Bool = true) -> RawResponse? {
        guard var response = readHead() else { return nil }
        let headers = response.headers
        guard hasBody else { return response }
        if headers["transfer-encoding"] == "chunked" {
            while true {
                guard let lineEnd = readLineEnd(),
                    let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self), radix: 16)
                else { return nil }
                buffer.removeFirst(lineEnd + 2)
                guard readCount(size + 2) else { return nil }
                response.body += buffer[0..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return response }
            }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard readCount(length) else { return nil }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    private func readLineEnd() -> Int? {
        while true {
            if let index = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }
            ) {
                return index
            }
            guard fill() else { return nil }
        }
    }

    private func readCount(_ count: Int) -> Bool {
        while buffer.count < count {
            guard fill() else { return false }
        }
        return true
    }
}

/// A response as `RawClient` read it.
struct RawResponse {
    var status: Int
    /// Header fields by lowercased name.
    var headers: [String: String]
    /// The header section's lines in order, as received (without the status line).
    var fieldLines: [String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// `send(2)`, reachable from inside `RawClient`, whose own `send` hides it.
private func socketSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
