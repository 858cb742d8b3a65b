import Foundation
import NetworkTestSupport

/// The event streams the streaming benchmark reads, served by MockServer on 127.0.0.1.
///
/// - `/events/N`: N small events (a 32-byte payload each), written as fast as the client reads.
/// - `/ticks/N`: N events 5 ms apart, each carrying the uptime (ns) at which the server wrote it.
/// - `/bulk/BYTES`: 1 KB events adding up to BYTES, as fast as the client reads.
enum StreamServer {
    static func start() throws -> MockServer {
        let server = MockServer { request in
            let parts = request.path.split(separator: "/")
            guard parts.count == 2, let count = Int(parts[1]) else { return MockResponse(status: 404) }
            switch parts[0] {
            case "events": return events(count, payload: 32)
            case "bulk": return events(count / 1_024, payload: 1_024 - 8)
            case "ticks": return ticks(count)
            default: return MockResponse(status: 404)
            }
        }
        try server.start()
        return server
    }

    private static let headers = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]

    /// `count` events of `payload` bytes, 64 to a write.
    private static func events(_ count: Int, payload: Int) -> MockResponse {
        let event = Data(("data: " + String(repeating: "x", count: payload) + "\n\n").utf8)
        return MockResponse(
            headers: headers,
            content: .stream(length: nil) {
                var left = count
                return {
                    guard left > 0 else { return nil }
                    let batch = min(64, left)
                    left -= batch
                    return Data((0..<batch).map { _ in event }.joined())
                }
            })
    }

    private static func ticks(_ count: Int) -> MockResponse {
        MockResponse(
            headers: headers,
            content: .stream(length: nil) {
                var left = count
                return {
                    guard left > 0 else { return nil }
                    left -= 1
                    Thread.sleep(forTimeInterval: 0.005)
                    return Data("data: \(DispatchTime.now().uptimeNanoseconds)\n\n".utf8)
                }
            })
    }
}
