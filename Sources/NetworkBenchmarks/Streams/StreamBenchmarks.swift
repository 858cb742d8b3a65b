import Foundation
import NetworkLayer
import NetworkTestSupport

/// `NetworkBenchmarks --streams [--rounds N] [--events N] [--bytes N]`: server-sent events read by the
/// layer and by raw URLSession's delegate API side by side, rounds alternating, against MockServer in
/// this process (it shares the CPU). Rows: events per second for small events, the delay from the server
/// writing an event to the handler receiving it (median and 99th percentile of 300 events, 5 ms apart),
/// and the peak growth of resident memory over a 1 GB stream (each client in a process of its own).
enum StreamBenchmarks {
    static func run(rounds: Int, events: Int, bytes: Int) -> Bool {
        let server: MockServer
        do {
            server = try StreamServer.start()
        } catch {
            say("Could not start the server: \(error)")
            return false
        }
        defer { server.stop() }
        let queue = DispatchQueue(label: "stream handlers")
        let clients: [any StreamClient] = [LayerStreamClient(queue: queue), RawStreamClient(queue: queue)]
        guard let small = server.url("/events/\(events)"), let ticks = server.url("/ticks/300"),
            let warm = server.url("/events/1000")
        else { return false }
        for client in clients { _ = read(warm, with: client) }

        var rates = [String: [Double]]()
        var delays = [String: [Double]]()
        for _ in 0..<rounds {
            for client in clients {
                let began = DispatchTime.now().uptimeNanoseconds
                let (ok, count, _) = read(small, with: client)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
                guard ok, count == events else {
                    say("\(client.name) read \(count) of \(events) events")
                    return false
                }
                rates[client.name, default: []].append(Double(count) / seconds)
                let (tickOK, _, stamps) = read(ticks, with: client, stamps: true)
                guard tickOK else { return false }
                delays[client.name, default: []] += stamps
            }
        }
        say(
            "| \(events) small events × \(rounds) rounds | NetworkLayer | raw URLSession (delegate) | ratio |"
        )
        say("|---|---|---|---|")
        let layerRate = median(rates["NetworkLayer"] ?? [])
        let rawRate = median(rates["raw URLSession"] ?? [])
        say(
            "| events per second (median round) | \(Int(layerRate)) | \(Int(rawRate)) | \(ratio(layerRate, rawRate)) |"
        )
        for (label, fraction) in [("median", 0.5), ("99th percentile", 0.99)] {
            let layer = percentile(delays["NetworkLayer"] ?? [], fraction)
            let raw = percentile(delays["raw URLSession"] ?? [], fraction)
            say(
                "| write-to-handler delay, \(label) | \(micro(layer)) | \(micro(raw)) | \(ratio(raw, layer)) |"
            )
        }
        guard ProcessStats.residentBytes() != nil else { return true }
        for client in ["layer", "raw"] {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["--stream-memory-case", client, String(bytes)]
            let output = Pipe()
            child.standardOutput = output
            do { try child.run() } catch { return false }
            let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            say(line.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return true
    }

    /// One memory case, in this process: a `bytes` stream of 1 KB events; prints its row.
    static func runMemoryCase(_ name: String, bytes: Int) -> Bool {
        guard let server = try? StreamServer.start(), let url = server.url("/bulk/\(bytes)"),
            let warm = server.url("/bulk/1000000")
        else { return false }
        defer { server.stop() }
        let queue = DispatchQueue(label: "stream handlers")
        let client: any StreamClient =
            name == "layer" ? LayerStreamClient(queue: queue) : RawStreamClient(queue: queue)
        _ = read(warm, with: client)
        var result = (false, 0, [Double]())
        let began = DispatchTime.now().uptimeNanoseconds
        let growth = MemorySampler.peakGrowth { result = read(url, with: client) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        say(
            "| \(bytes / 1_000_000) MB of 1 KB events | \(client.name) | \(String(format: "%.0f", Double(bytes) / 1e6 / seconds)) MB/s | "
                + "peak memory growth \(result.0 ? String(format: "%+.1f MB", Double(growth) / 1e6) : "failed") |"
        )
        return result.0
    }

    /// Reads one stream to its end: whether it ended well, how many events, and (with `stamps`) each
    /// event's delay in seconds from the stamp it carries.
    private static func read(_ url: URL, with client: any StreamClient, stamps: Bool = false) -> (
        Bool, Int, [Double]
    ) {
        let finished = DispatchSemaphore(value: 0)
        let tally = Tally()
        client.read(url) { data in
            tally.count += 1
            if stamps, let sent = UInt64(data) {
                tally.delays.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9)
            }
        } done: { ok in
            tally.ok = ok
            finished.signal()
        }
        guard finished.wait(timeout: .now() + 600) == .success else { return (false, tally.count, []) }
        return (tally.ok, tally.count, tally.delays)
    }

    private static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    private static func ratio(_ a: Double, _ b: Double) -> String {
        b > 0 ? String(format: "%.2f×", a / b) : "–"
    }

    private static func micro(_ seconds: Double) -> String {
        String(format: "%.0f µs", seconds * 1e6)
    }
}

/// Written on the handler queue only; read after the stream's `done`, which that queue runs last.
private final class Tally: @unchecked Sendable {
    var count = 0
    var ok = false
    var delays: [Double] = []
}
