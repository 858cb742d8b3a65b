import Foundation
import NetworkLayer
import NetworkTestSupport

/// `NetworkBenchmarks --hostile`: how much resident memory a reply that never ends, or a gzip bomb,
/// costs the process before the layer's size limit stops it, with the server sending at about 100 MB/s
/// and at full loopback speed.
enum HostileReplies {
    private struct Case {
        let name: String
        let reply: MockResponse
    }

    private static let limit = 1_048_576

    private static var cases: [Case] {
        // 100 MB/s: 1 MiB every 10 ms of plain bytes; a gzip stream of zeros inflates about 1,000-fold,
        // so 1 KB of it every 10 ms.
        let endless = MockResponse(content: .repeating(0x61, count: nil))
        let bomb = MockResponse(content: .repeating(0, count: 256 << 20)).gzipped()
        return [
            Case(name: "endless body, ~100 MB/s", reply: endless.throttled(bytes: 1_048_576, every: 0.01)),
            Case(name: "endless body, full speed", reply: endless),
            Case(
                name: "256 MiB gzip bomb, ~100 MB/s inflated",
                reply: bomb.throttled(bytes: 1_000, every: 0.01)),
            Case(name: "256 MiB gzip bomb, full speed", reply: bomb),
        ]
    }

    /// Runs every case `rounds` times and prints the largest growth of resident memory seen while each
    /// request ran (sampled every 2 ms) and what remained a second after its handler.
    static func run(rounds: Int) -> Bool {
        guard ProcessStats.residentBytes() != nil else {
            say("Resident memory can't be read here (no /proc).")
            return false
        }
        let server = MockServer()
        do { try server.start() } catch {
            say("Could not start the server: \(error)")
            return false
        }
        defer { server.stop() }
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "hostile"),
            maximumResponseSize: limit)
        // One ordinary request first, so the session, its connection and the allocator's arenas exist
        // before anything is measured.
        server.enqueue(MockResponse(body: Data(repeating: 0x61, count: limit / 2)))
        _ = measure { done in
            network.get(
                urlString: "warm-up", successHandler: { (_: EmptyResponse) in done("success") },
                errorHandler: { error in done(error.message) })
        }
        say("| reply (limit 1 MiB) | outcome | peak growth | after 1 s |")
        say("|---|---|---|---|")
        for hostile in cases {
            var peaks: [Int] = []
            var afters: [Int] = []
            var outcome = ""
            for _ in 0..<rounds {
                server.enqueue(hostile.reply)
                let reading = measure { done in
                    network.get(
                        urlString: "hostile", successHandler: { (_: EmptyResponse) in done("success") },
                        errorHandler: { error in done(error.message) })
                }
                peaks.append(reading.peak)
                afters.append(reading.after)
                outcome = reading.outcome
            }
            say(
                "| \(hostile.name) | \(outcome) | \(megabytes(peaks.max() ?? 0)) | "
                    + "\(megabytes(afters.max() ?? 0)) |")
        }
        return true
    }

    private struct Reading {
        var peak = 0
        var after = 0
        var outcome = ""
    }

    private static func measure(_ start: (@escaping @Sendable (String) -> Void) -> NetworkTask) -> Reading {
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked("")
        let base = ProcessStats.residentBytes() ?? 0
        let peak = Locked(base)
        let sampling = Locked(true)
        let sampler = Thread {
            while sampling.value {
                let now = ProcessStats.residentBytes() ?? 0
                peak.update { $0 = max($0, now) }
                usleep(2_000)
            }
        }
        sampler.start()
        _ = start { text in
            outcome.update { $0 = text }
            finished.signal()
        }
        if finished.wait(timeout: .now() + 60) == .timedOut { outcome.update { $0 = "no handler in 60 s" } }
        // What FoundationNetworking still reads and hands over after the cancel arrives here too.
        Thread.sleep(forTimeInterval: 1)
        sampling.update { $0 = false }
        let after = ProcessStats.residentBytes() ?? 0
        return Reading(peak: peak.value - base, after: after - base, outcome: outcome.value)
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%+.1f MB", Double(bytes) / 1_000_000)
    }
}

/// A value shared between the measuring thread and the handler's queue.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
