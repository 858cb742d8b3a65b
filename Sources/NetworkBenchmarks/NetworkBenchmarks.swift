import Foundation
import NetworkLayer
import NetworkTestSupport

/// `swift run -c release NetworkBenchmarks [--base-url URL] [--json FILE] [--rounds N] [--only TEXT] [--smoke]
/// [--skip-transfers]` runs the workloads; it fails when any request of any row failed. The transfer rows use
/// an embedded server of their own whatever `--base-url` says (`--skip-transfers` leaves them out, as the TLS
/// run in `.ci/tools/bench-tls` does).
/// `swift run -c release NetworkBenchmarks --write-fixtures DIR` writes the JSON files nginx serves.
/// `swift run -c release NetworkBenchmarks --hostile [--rounds N]` measures memory under hostile replies.
/// `swift run -c release NetworkBenchmarks --transfers [--bytes N]` measures memory while 1 GB is downloaded
/// and uploaded.
/// `swift run -c release NetworkBenchmarks --resumable [--bytes N] [--rounds N]` measures a resumable (tus) upload
/// of 1 GiB against MockServer storing it on disk, beside plain uploads of the same file: memory and speed.
/// `swift run -c release NetworkBenchmarks --streams [--rounds N] [--events N] [--bytes N]` measures server-sent
/// events: throughput, delay and memory over a 1 GB stream.
/// `swift run -c release NetworkBenchmarks --outbox [--count N]` measures an offline outbox: enqueue latency
/// with and without the flush to the device, and items delivered per second.
/// `swift run -c release NetworkBenchmarks --soak --base-url URL [--count N] [--processes N]
/// [--clients a,b] [--together]` measures the growth of resident memory over many GETs to distinct URLs,
/// each client in processes of its own; `--soak-case CLIENT --base-url URL [--count N]` is one such
/// process, for `heaptrack` (``MemorySoak``).
/// `swift run -c release NetworkBenchmarks --alone layer|policies|logged|inspected|cachemiss|raw|rawdelegate|rawconcurrent
/// --base-url URL [--path P] [--count N] [--in-flight N] [--rounds N] [--threads]` runs one client alone, for
/// a profiler, or several (`layer,raw`) taking turns in one process; `--threads` prints the busiest threads'
/// CPU while each ran (Linux).
@main
enum NetworkBenchmarks {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let folder = value(of: "--write-fixtures", in: arguments) {
            do {
                try Fixtures.write(to: URL(fileURLWithPath: folder))
                say("Wrote small.json and large.json to \(folder)")
                exit(0)
            } catch {
                say("Could not write the fixtures: \(error)")
                exit(1)
            }
        }
        if let index = arguments.firstIndex(of: "--transfer-case"), arguments.count > index + 3 {
            let (transfer, client, bytes) = (arguments[index + 1], arguments[index + 2], arguments[index + 3])
            exit(TransferMemory.runCase(transfer, client: client, bytes: Int(bytes) ?? 1_000_000_000) ? 0 : 1)
        }
        if let index = arguments.firstIndex(of: "--resumable-case"), arguments.count > index + 3 {
            let (client, file, bytes) = (arguments[index + 1], arguments[index + 2], arguments[index + 3])
            exit(
                ResumableUploadBenchmark.runCase(
                    client, file: URL(fileURLWithPath: file), bytes: Int(bytes) ?? 0)
                    ? 0 : 1)
        }
        if arguments.contains("--resumable") {
            let bytes = value(of: "--bytes", in: arguments).flatMap(Int.init) ?? 1 << 30
            let rounds = value(of: "--rounds", in: arguments).flatMap(Int.init) ?? 3
            exit(ResumableUploadBenchmark.run(bytes: max(1, bytes), rounds: max(1, rounds)) ? 0 : 1)
        }
        if let index = arguments.firstIndex(of: "--stream-memory-case"), arguments.count > index + 2 {
            exit(
                StreamBenchmarks.runMemoryCase(
                    arguments[index + 1], bytes: Int(arguments[index + 2]) ?? 1_000_000_000)
                    ? 0 : 1)
        }
        if arguments.contains("--streams") {
            let rounds = value(of: "--rounds", in: arguments).flatMap(Int.init) ?? 3
            let events = value(of: "--events", in: arguments).flatMap(Int.init) ?? 200_000
            let bytes = value(of: "--bytes", in: arguments).flatMap(Int.init) ?? 1_000_000_000
            exit(
                StreamBenchmarks.run(rounds: max(1, rounds), events: max(1, events), bytes: max(1, bytes))
                    ? 0 : 1)
        }
        if arguments.contains("--transfers") {
            let bytes = value(of: "--bytes", in: arguments).flatMap(Int.init) ?? 1_000_000_000
            exit(TransferMemory.run(bytes: max(1, bytes)) ? 0 : 1)
        }
        if arguments.contains("--outbox") {
            let count = value(of: "--count", in: arguments).flatMap(Int.init) ?? 2_000
            exit(OutboxBenchmarks.run(count: max(1, count)) ? 0 : 1)
        }
        if arguments.contains("--hostile") {
            let rounds = value(of: "--rounds", in: arguments).flatMap(Int.init) ?? 3
            exit(HostileReplies.run(rounds: max(1, rounds)) ? 0 : 1)
        }
        if let baseURL = value(of: "--base-url", in: arguments).flatMap(URL.init(string:)),
            arguments.contains("--soak") || arguments.contains("--soak-case")
        {
            let count = value(of: "--count", in: arguments).flatMap(Int.init) ?? 200_000
            let processes = value(of: "--processes", in: arguments).flatMap(Int.init) ?? 5
            let clients = value(of: "--clients", in: arguments)?.split(separator: ",").map(String.init)
            let soakCase = value(of: "--soak-case", in: arguments)
            // The soak's requests complete on the main queue, which the main thread's run loop drains.
            Thread {
                let ok =
                    soakCase.map { MemorySoak.runCase($0, baseURL: baseURL, count: max(1, count)) }
                    ?? SoakDriver.run(
                        baseURL: baseURL, count: max(2, count), processes: max(1, processes),
                        clients: clients ?? ["raw", "layer", "layer-nocache"],
                        together: arguments.contains("--together"))
                exit(ok ? 0 : 1)
            }.start()
            RunLoop.main.run()
        }
        if let client = value(of: "--alone", in: arguments),
            let baseURL = value(of: "--base-url", in: arguments).flatMap(URL.init(string:))
        {
            let count = value(of: "--count", in: arguments).flatMap(Int.init) ?? 20_000
            let inFlight = value(of: "--in-flight", in: arguments).flatMap(Int.init) ?? 64
            let path = value(of: "--path", in: arguments) ?? "small.json"
            let driver = Thread {
                exit(
                    AloneRun.run(
                        client: client, baseURL: baseURL, path: path, count: count, inFlight: inFlight,
                        rounds: value(of: "--rounds", in: arguments).flatMap(Int.init) ?? 1,
                        threads: arguments.contains("--threads"))
                        ? 0 : 1)
            }
            driver.start()
            RunLoop.main.run()
        }
        // The benchmark drives requests from a background thread; handlers arrive on the main queue,
        // which the main thread's run loop drains, so main-thread CPU time is main-queue time.
        let driver = Thread {
            exit(run(arguments: arguments) ? 0 : 1)
        }
        driver.start()
        RunLoop.main.run()
    }

    static func run(arguments: [String]) -> Bool {
        var counts = arguments.contains("--smoke") ? Counts.smoke : Counts()
        if let rounds = value(of: "--rounds", in: arguments).flatMap(Int.init) {
            counts.rounds = max(1, rounds)
        }
        let server: MockServer?
        let baseURL: URL
        if let external = value(of: "--base-url", in: arguments).flatMap(URL.init(string:)) {
            server = nil
            baseURL = external
        } else {
            do {
                let embedded = try BenchmarkServer.start()
                server = embedded
                baseURL = embedded.baseURL
            } catch {
                say("Could not start the embedded server: \(error)")
                return false
            }
        }
        defer { server?.stop() }
        var serverRequests: (@Sendable () -> Int)?
        if let server { serverRequests = { server.requestCount } }
        let report = measure(
            baseURL: baseURL, counts: counts, queue: .main, only: value(of: "--only", in: arguments),
            transfers: !arguments.contains("--skip-transfers"), serverRequests: serverRequests,
            log: { say($0) })
        say("\nServer: \(server == nil ? baseURL.absoluteString : "embedded MockServer (shares the CPU)")")
        say("Machine: \(report.machine)\n")
        say(report.table)
        if let path = value(of: "--json", in: arguments) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(report).write(to: URL(fileURLWithPath: path))
                say("\nWrote \(path)")
            } catch {
                say("Could not write \(path): \(error)")
                return false
            }
        }
        let failed = report.rows.filter { $0.errors > 0 }
        guard failed.isEmpty else {
            say("\nFAILED: \(failed.map { "\($0.workload): \($0.errors) errors" }.joined(separator: "; "))")
            return false
        }
        return true
    }

    /// Runs every workload on both clients (and the "policies on" workload on a third) against `baseURL`,
    /// handlers delivered on `queue`.
    static func measure(
        baseURL: URL, counts: Counts, queue: DispatchQueue, only: String? = nil, transfers: Bool = true,
        serverRequests: (@Sendable () -> Int)? = nil, log: @escaping (String) -> Void = { _ in }
    )
        -> Report
    {
        var workloads = Workloads(
            layer: LayerClient(baseURL: baseURL, callbackQueue: queue),
            raw: RawClient(baseURL: baseURL, callbackQueue: queue),
            rawDelegate: RawDelegateClient(baseURL: baseURL, callbackQueue: queue),
            rawConcurrent: RawConcurrentClient(baseURL: baseURL, callbackQueue: queue),
            policies: LayerClient(baseURL: baseURL, callbackQueue: queue, variant: .policiesOn),
            logged: LayerClient(baseURL: baseURL, callbackQueue: queue, variant: .logged),
            inspected: LayerClient(
                baseURL: baseURL, callbackQueue: queue, variant: .inspected(defaults: false)),
            cached: LayerClient(baseURL: baseURL, callbackQueue: queue, variant: .cacheOn),
            unscheduled: LayerClient(baseURL: baseURL, callbackQueue: queue, variant: .schedulerOff),
            queue: queue, counts: counts)
        workloads.serverRequests = serverRequests
        workloads.log = log
        workloads.only = only
        var transferWorkloads = TransferWorkloads(counts: counts)
        transferWorkloads.log = log
        transferWorkloads.only = only
        let rows = workloads.runAll() + (transfers ? transferWorkloads.run() : [])
        return Report(
            date: ISO8601DateFormatter().string(from: Date()), machine: Report.machineDescription(),
            server: baseURL.absoluteString, rounds: counts.rounds, rows: rows)
    }

    private static func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), arguments.indices.contains(index + 1) else {
            return nil
        }
        return arguments[index + 1]
    }
}

/// Writes a line to standard output at once, so progress shows even when the output goes to a file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
