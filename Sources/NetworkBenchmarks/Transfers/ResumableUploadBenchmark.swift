import Foundation
import NetworkLayer
import NetworkTestSupport

/// `NetworkBenchmarks --resumable [--bytes N] [--rounds N]`: a resumable (tus 1.0) upload of one file against
/// MockServer storing uploads on disk, beside a plain upload of the same file to the same server, through
/// the layer and through raw URLSession's `uploadTask(fromFile:)`; rounds interleave the three. Each run is a
/// process of its own, the server inside it: its peak resident memory growth is VmHWM after the upload minus
/// VmRSS before it (from /proc/self/status), which counts any spike, the server's included.
enum ResumableUploadBenchmark {
    private static let clients = ["tus", "plain", "raw"]

    /// Writes the file once, runs every client `rounds` times in turn, and prints each run and the medians.
    static func run(bytes: Int, rounds: Int) -> Bool {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkBenchmarks-resumable-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        do { try writeTestFile(file, size: bytes) } catch {
            say("Could not write the file: \(error)")
            return false
        }
        var runs: [String: [(seconds: Double, growth: Double)]] = [:]
        say("| run | client | seconds | MB/s | peak memory growth |")
        say("|---|---|---|---|---|")
        for round in 1...rounds {
            for client in clients {
                guard let (seconds, growth) = runChild(client, file: file, bytes: bytes) else { return false }
                runs[client, default: []].append((seconds, growth))
                say(
                    "| \(round) | \(client) | \(String(format: "%.2f", seconds)) | "
                        + "\(String(format: "%.0f", Double(bytes) / 1e6 / seconds)) | "
                        + "\(String(format: "%+.1f MB", growth / 1e6)) |")
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        for client in clients {
            let mine = runs[client] ?? []
            say(
                "\(client): median \(String(format: "%.0f", Double(bytes) / 1e6 / median(mine.map(\.seconds)))) MB/s, "
                    + "peak growth \(String(format: "%.1f", median(mine.map(\.growth)) / 1e6)) MB "
                    + "(max \(String(format: "%.1f", (mine.map(\.growth).max() ?? 0) / 1e6)))")
        }
        let ratios = zip(runs["plain"] ?? [], runs["tus"] ?? []).map { $0.seconds / $1.seconds }
        say(
            "tus throughput / plain, per round: \(ratios.map { String(format: "%.2f", $0) }), median \(String(format: "%.2f", median(ratios)))"
        )
        return true
    }

    private static func runChild(_ client: String, file: URL, bytes: Int) -> (Double, Double)? {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--resumable-case", client, file.path, String(bytes)]
        let output = Pipe()
        child.standardOutput = output
        do { try child.run() } catch {
            say("Could not run \(client): \(error)")
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = text.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard child.terminationStatus == 0, fields.count == 2 else {
            say("\(client) failed: \(text)")
            return nil
        }
        return (fields[0], fields[1])
    }

    /// One upload, in this process: prints its seconds and its peak memory growth in bytes.
    static func runCase(_ client: String, file: URL, bytes: Int) -> Bool {
        let storage = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkBenchmarks-store-\(UUID().uuidString)", isDirectory: true)
        guard let server = try? StoringServer(folder: storage) else { return false }
        defer { server.stop() }
        let warm = storage.appendingPathComponent("warm.bin")
        guard (try? writeTestFile(warm, size: 1_000_000)) != nil, upload(client, warm, to: server) else {
            return false
        }
        let before = ProcessStats.memoryStatus("VmRSS") ?? 0
        let began = DispatchTime.now().uptimeNanoseconds
        guard upload(client, file, to: server), server.storedLength(of: client) == bytes else { return false }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        let growth = (ProcessStats.memoryStatus("VmHWM") ?? 0) - before
        say("\(seconds) \(growth)")
        return true
    }

    private static func upload(_ client: String, _ file: URL, to server: StoringServer) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let ok = Locked(false)
        let finish: @Sendable (Bool) -> Void = { success in
            ok.withLock { $0 = success }
            done.signal()
        }
        let network = server.network
        switch client {
        case "tus":
            network.send(
                .upload(urlString: "files", fileURL: file, resumable: .tus),
                successHandler: { _ in finish(true) }, errorHandler: { _ in finish(false) })
        case "plain":
            network.send(
                NetworkRequest<Data>.upload(urlString: "upload", fileURL: file),
                successHandler: { _ in finish(true) }, errorHandler: { _ in finish(false) })
        default:
            server.rawUpload(file, completion: finish)
        }
        _ = done.wait(timeout: .now() + 600)
        return ok.withLock { $0 }
    }
}
