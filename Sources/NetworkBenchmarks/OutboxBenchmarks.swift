import Foundation
import NetworkLayer
import NetworkTestSupport

/// `--outbox [--count N]`: an offline outbox's costs, a report with no target. Enqueue latency (median and
/// p99) with and without the flush to the device, and items delivered per second, one at a time, to a
/// server on 127.0.0.1 answering 204.
enum OutboxBenchmarks {
    static func run(count: Int) -> Bool {
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outbox-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let down = try unreachableURL()
            for flushes in [false, true] {
                let latencies = try enqueueLatencies(
                    count: count, flushes: flushes, folder: folder, baseURL: down)
                say(
                    "enqueue, flush to device \(flushes ? "on " : "off"): median \(format(percentile(latencies, 0.5))) "
                        + "p99 \(format(percentile(latencies, 0.99))) over \(count) items")
            }
            say("delivered: \(Int(try deliveryRate(folder: folder))) items/s, one at a time, to 127.0.0.1")
            return true
        } catch {
            say("outbox benchmark failed: \(error)")
            return false
        }
    }

    /// A base URL nothing listens on: items enqueued there stay, their first attempt refused.
    private static func unreachableURL() throws -> URL {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        return server.baseURL
    }

    private static func options(flushes: Bool) -> OutboxOptions {
        var options = OutboxOptions()
        options.flushesToDevice = flushes
        options.initialDelay = 3600
        options.maximumItemCount = .max
        return options
    }

    private static func enqueueLatencies(count: Int, flushes: Bool, folder: URL, baseURL: URL) throws
        -> [Double]
    {
        let layer = NetworkLayer(baseURL: baseURL, callbackQueue: DispatchQueue(label: "bench.outbox"))
        let outbox = try Outbox(
            directory: folder, name: flushes ? "flushed" : "kept", layer: layer,
            options: options(flushes: flushes))
        defer { outbox.close() }
        let body = ["text": String(repeating: "a message ", count: 20)]
        return try (0..<count).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            try outbox.enqueue(
                OutboxRequest(.post, "messages", body: .json(body), kind: "message", account: .any))
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }

    /// Delivers the items the unflushed run left, timing from opening the outbox to its last delivery.
    private static func deliveryRate(folder: URL) throws -> Double {
        let server = MockServer { _ in MockResponse(status: 204) }
        try server.start()
        defer { server.stop() }
        let done = DispatchSemaphore(value: 0)
        let layer = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "bench.deliver"))
        let start = DispatchTime.now().uptimeNanoseconds
        let outbox = try Outbox(
            directory: folder, name: "kept", layer: layer, options: options(flushes: false))
        let total = outbox.items.count
        let observation = outbox.addObserver(on: DispatchQueue(label: "bench.events")) { event in
            if case .count(waiting: 0, _) = event { done.signal() }
        }
        done.wait()
        observation.cancel()
        return Double(total) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%.3f ms", seconds * 1000)
    }
}
