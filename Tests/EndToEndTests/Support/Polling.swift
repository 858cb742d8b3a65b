import Foundation
import XCTest

extension XCTestCase {
    /// Waits until `condition` holds, checking it every 10 ms on a background queue: for state that
    /// nothing announces, such as a socket the kernel has closed.
    func waitUntil(
        _ description: String, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
        _ condition: @escaping @Sendable () -> Bool
    ) {
        let met = expectation(description: description)
        met.assertForOverFulfill = false
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now(), repeating: .milliseconds(10))
        timer.setEventHandler {
            if condition() { met.fulfill() }
        }
        timer.resume()
        wait(for: [met], timeout: timeout)
        timer.cancel()
    }
}

/// TCP connections on 127.0.0.1 as the kernel lists them in `/proc/net/tcp` (Linux only).
enum LoopbackTCP {
    /// How many accepted (server-side) sockets of the listener on `port` are still open, in any state
    /// but LISTEN; `nil` where `/proc/net/tcp` cannot be read.
    static func acceptedSockets(onPort port: Int) -> Int? {
        // Not String(contentsOfFile:): it stops after the first 4 KB of this size-less procfs file.
        guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return nil }
        defer { try? file.close() }
        guard let bytes = try? file.readToEnd() else { return nil }
        let table = String(decoding: bytes, as: UTF8.self)
        let hexPort = String(port, radix: 16, uppercase: true)
        let local = "0100007F:" + String(repeating: "0", count: max(0, 4 - hexPort.count)) + hexPort
        return table.split(separator: "\n").dropFirst().filter { row in
            let fields = row.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] != "0A"
        }.count
    }
}
