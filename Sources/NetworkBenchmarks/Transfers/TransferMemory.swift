import Foundation
import NetworkTestSupport

/// `NetworkBenchmarks --transfers [--bytes N]`: the peak growth of resident memory while 1 GB is
/// downloaded to a file and uploaded from one at full loopback speed, NetworkLayer and raw URLSession
/// each in turn, the layer first (the process is then at its smallest, so its figure is the least
/// flattered).
enum TransferMemory {
    static func run(bytes: Int) -> Bool {
        guard ProcessStats.residentBytes() != nil else {
            say("Resident memory can't be read here (no /proc).")
            return false
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkBenchmarks-\(UUID().uuidString)", isDirectory: true)
        let server: MockServer
        let file = folder.appendingPathComponent("upload.bin")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try writeTestFile(file, size: bytes)
            server = try TransferServer.start()
        } catch {
            say("Could not prepare: \(error)")
            return false
        }
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        guard let blob = server.url("/blob/\(bytes)"), let warmBlob = server.url("/blob/1000000"),
            let upload = server.url("/upload"), let steadyBlob = server.url("/blob/\(bytes)?rate=400")
        else { return false }
        let destination = folder.appendingPathComponent("download.bin")
        let clients: [TransferClient] = [
            LayerTransferClient(), RawTransferClient(uploadForm: .fromFile),
            RawTransferClient(uploadForm: .httpBody),
        ]
        // Sessions, connections and the allocator's arenas exist before anything is measured.
        for client in clients { _ = transfer { client.download(warmBlob, to: destination, completion: $0) } }
        say("| \(bytes / 1_000_000) MB at full speed | client | seconds | MB/s | peak memory growth |")
        say("|---|---|---|---|---|")
        for client in clients.prefix(2) {
            report("download", client, bytes) { client.download(blob, to: destination, completion: $0) }
        }
        for client in clients.prefix(2) {
            report("download at ~400 MB/s", client, bytes) {
                client.download(steadyBlob, to: destination, completion: $0)
            }
        }
        for client in clients {
            report("upload from a file", client, bytes) { client.upload(file, to: upload, completion: $0) }
        }
        return true
    }

    private static func report(
        _ what: String, _ client: TransferClient, _ bytes: Int,
        _ start: (@escaping @Sendable (Bool) -> Void) -> Void
    ) {
        let (ok, seconds, growth) = transfer(start)
        say(
            "| \(what) | \(client.name) | \(String(format: "%.2f", seconds)) | "
                + "\(String(format: "%.0f", Double(bytes) / 1e6 / seconds)) | "
                + "\(ok ? String(format: "%+.1f MB", Double(growth) / 1e6) : "failed") |")
    }

    private static func transfer(_ start: (@escaping @Sendable (Bool) -> Void) -> Void) -> (Bool, Double, Int)
    {
        let done = DispatchSemaphore(value: 0)
        let result = Flag()
        var seconds = 0.0
        let growth = MemorySampler.peakGrowth {
            let began = DispatchTime.now().uptimeNanoseconds
            start { ok in
                result.set(ok)
                done.signal()
            }
            _ = done.wait(timeout: .now() + 600)
            seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        return (result.value, seconds, growth)
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false

    func set(_ value: Bool) { lock.withLock { stored = value } }

    var value: Bool { lock.withLock { stored } }
}
