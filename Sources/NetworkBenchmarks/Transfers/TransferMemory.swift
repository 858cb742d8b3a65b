import Foundation
import NetworkTestSupport

/// `NetworkBenchmarks --transfers [--bytes N]`: the peak growth of resident memory while 1 GB is
/// downloaded to a file and uploaded from one, at full loopback speed (and a download at about
/// 400 MB/s), NetworkLayer and raw URLSession. Each case runs in a process of its own, so that no case
/// inherits what the allocator kept from another.
enum TransferMemory {
    private struct Case {
        let transfer: String
        let client: String
    }

    private static let cases = [
        Case(transfer: "download", client: "layer"), Case(transfer: "download", client: "raw"),
        Case(transfer: "download at ~400 MB/s", client: "layer"),
        Case(transfer: "download at ~400 MB/s", client: "raw"),
        Case(transfer: "upload from a file", client: "layer"),
        Case(transfer: "upload from a file", client: "raw"),
        Case(transfer: "upload from a file", client: "httpBody"),
    ]

    /// Runs every case in a child process and prints the table.
    static func run(bytes: Int) -> Bool {
        guard ProcessStats.residentBytes() != nil else {
            say("Resident memory can't be read here (no /proc).")
            return false
        }
        say("| \(bytes / 1_000_000) MB | client | seconds | MB/s | peak memory growth |")
        say("|---|---|---|---|---|")
        var ok = true
        for item in cases {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["--transfer-case", item.transfer, item.client, String(bytes)]
            let output = Pipe()
            child.standardOutput = output
            do {
                try child.run()
            } catch {
                say("Could not run \(item.transfer) with \(item.client): \(error)")
                return false
            }
            let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            ok = ok && child.terminationStatus == 0
            say(line.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return ok
    }

    /// One case, in this process: prints its table row.
    static func runCase(_ transfer: String, client name: String, bytes: Int) -> Bool {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkBenchmarks-\(UUID().uuidString)", isDirectory: true)
        let server: MockServer
        let file = folder.appendingPathComponent("upload.bin")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if transfer.hasPrefix("upload") { try writeTestFile(file, size: bytes) }
            server = try TransferServer.start()
        } catch {
            say("Could not prepare: \(error)")
            return false
        }
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let client: TransferClient =
            switch name {
            case "layer": LayerTransferClient()
            case "raw": RawTransferClient(uploadForm: .fromFile)
            default: RawTransferClient(uploadForm: .httpBody)
            }
        let rate = transfer.contains("400") ? "?rate=400" : ""
        guard let blob = server.url("/blob/\(bytes)\(rate)"), let warmBlob = server.url("/blob/1000000"),
            let upload = server.url("/upload")
        else { return false }
        let destination = folder.appendingPathComponent("download.bin")
        // The session, its connection and the allocator's arenas exist before anything is measured.
        _ = measure { client.download(warmBlob, to: destination, completion: $0) }
        let (ok, seconds, growth) = measure { done in
            if transfer.hasPrefix("upload") {
                client.upload(file, to: upload, completion: done)
            } else {
                client.download(blob, to: destination, completion: done)
            }
        }
        say(
            "| \(transfer) | \(client.name) | \(String(format: "%.2f", seconds)) | "
                + "\(String(format: "%.0f", Double(bytes) / 1e6 / seconds)) | "
                + "\(ok ? String(format: "%+.1f MB", Double(growth) / 1e6) : "failed") |")
        return ok
    }

    private static func measure(_ start: (@escaping @Sendable (Bool) -> Void) -> Void) -> (Bool, Double, Int)
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
