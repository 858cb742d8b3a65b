import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP client on 127.0.0.1 that sends exactly the bytes a test writes (any `Host`, any request line)
/// and reads what comes back, or reads nothing at all.
final class RawClient {
    private let fd: Int32

    init?(port: Int) {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
    }

    deinit {
        close(fd)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// A GET of `target` with `host` as its `Host`.
    func get(_ target: String, host: String) {
        send("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    }

    /// What arrives until the server closes, `until` is found, or `timeout` passes.
    func read(until marker: String? = nil, timeout: TimeInterval = 5) -> String {
        var received = Data()
        let deadline = Date(timeIntervalSinceNow: timeout)
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        while deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1_000)))
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            // Only the new bytes and the marker's length before them can hold a new match.
            let from = max(0, received.count - (marker?.utf8.count ?? 0))
            received.append(contentsOf: buffer[0..<count])
            if let marker, String(decoding: received[from...], as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The status of the reply in `text`, its first line's second word.
    static func status(_ text: String) -> Int? {
        text.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
