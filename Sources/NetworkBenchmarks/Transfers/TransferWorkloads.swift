import Foundation
import NetworkTestSupport

/// Downloads and uploads of `counts.transferBytes`, NetworkLayer against raw URLSession in the same run,
/// alternating A, B, A, B: throughput and the peak growth of resident memory while each ran.
struct TransferWorkloads {
    let counts: Counts
    var log: (String) -> Void = { _ in }
    var only: String?
    /// Counts each row's failed transfers (see ``Row/errors``).
    private let failures = FailureTally()

    func run() -> [Row] {
        let names = [downloadName, uploadName]
        guard names.contains(where: selected) else { return [] }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkBenchmarks-\(UUID().uuidString)", isDirectory: true)
        let server: MockServer
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            server = try TransferServer.start()
        } catch {
            log("Could not prepare the transfer workloads: \(error)")
            return []
        }
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let layer = LayerTransferClient()
        let raw = RawTransferClient(uploadForm: .fromFile)
        let rawBody = RawTransferClient(uploadForm: .httpBody)
        var rows: [Row] = []
        if selected(downloadName), let blob = server.url("/blob/\(counts.transferBytes)") {
            log(downloadName)
            let destination = folder.appendingPathComponent("download.bin")
            rows += failures.counting {
                compare(downloadName, layer, [raw], target: 0.95) { client, done in
                    client.download(blob, to: destination, completion: done)
                }
            }
        }
        let file = folder.appendingPathComponent("upload.bin")
        if selected(uploadName), let upload = server.url("/upload"),
            (try? writeTestFile(file, size: counts.transferBytes)) != nil
        {
            log(uploadName)
            rows += failures.counting {
                compare(uploadName, layer, [raw, rawBody], target: 0.95) { client, done in
                    client.upload(file, to: upload, completion: done)
                }
            }
        }
        return rows
    }

    private var megabytes: Int { counts.transferBytes / 1_000_000 }
    private var downloadName: String { "download \(megabytes) MB to a file" }
    private var uploadName: String { "upload \(megabytes) MB from a file" }

    private func selected(_ name: String) -> Bool {
        only.map { name.localizedCaseInsensitiveContains($0) } ?? true
    }

    private typealias Start = (TransferClient, @escaping @Sendable (Bool) -> Void) -> Void

    /// One transfer: seconds and peak memory growth, or `nil` when it failed.
    private func measure(_ client: TransferClient, _ start: Start) -> (seconds: Double, growth: Int)? {
        let done = DispatchSemaphore(value: 0)
        let ok = OK()
        var seconds = 0.0
        let growth = MemorySampler.peakGrowth {
            let began = DispatchTime.now().uptimeNanoseconds
            start(client) { success in
                ok.set(success)
                done.signal()
            }
            _ = done.wait(timeout: .now() + 600)
            seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        guard ok.value else {
            log("  \(client.name): failed")
            failures.add(1)
            return nil
        }
        return (seconds, growth)
    }

    /// Throughput (MB/s) of `layer` and of the fastest of `raws`, and each one's peak memory growth.
    private func compare(
        _ name: String, _ layer: TransferClient, _ raws: [TransferClient], target: Double, _ start: Start
    )
        -> [Row]
    {
        // Warm both clients' sessions and code paths.
        for client in [layer] + raws { _ = measure(client, start) }
        var speeds: [String: [Double]] = [:]
        var growths: [String: [Double]] = [:]
        for _ in 0..<counts.rounds {
            for client in [layer] + raws {
                guard let (seconds, growth) = measure(client, start) else { continue }
                speeds[client.name, default: []].append(Double(counts.transferBytes) / 1e6 / seconds)
                growths[client.name, default: []].append(Double(growth) / 1e6)
            }
        }
        let best = raws.max { median(speeds[$0.name] ?? []) < median(speeds[$1.name] ?? []) } ?? layer
        var rows: [Row] = []
        for raw in raws {
            let layerSpeed = speeds[layer.name] ?? []
            let rawSpeed = speeds[raw.name] ?? []
            let ratio = median(layerSpeed) / max(median(rawSpeed), .leastNonzeroMagnitude)
            let judged = raw === best
            rows.append(
                Row(
                    workload: "\(name), vs \(raw.name)", unit: "MB/s", layer: median(layerSpeed),
                    raw: median(rawSpeed),
                    comparison: ratio, target: judged ? "ratio ≥ \(target) (fastest raw form)" : "none",
                    met: judged ? ratio >= target : nil, layerRounds: layerSpeed, rawRounds: rawSpeed))
            let layerGrowth = growths[layer.name] ?? []
            let rawGrowth = growths[raw.name] ?? []
            rows.append(
                Row(
                    workload: "\(name), peak memory growth vs \(raw.name)", unit: "MB",
                    layer: layerGrowth.max() ?? 0, raw: rawGrowth.max() ?? 0,
                    comparison: (layerGrowth.max() ?? 0) - (rawGrowth.max() ?? 0), target: "none", met: nil,
                    layerRounds: layerGrowth, rawRounds: rawGrowth))
        }
        return rows
    }
}

/// A flag set on a callback queue and read by the waiting thread.
private final class OK: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false

    func set(_ value: Bool) { lock.withLock { stored = value } }

    var value: Bool { lock.withLock { stored } }
}
