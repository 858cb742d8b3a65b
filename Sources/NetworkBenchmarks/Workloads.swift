import Foundation

/// One measured row: both clients' medians, their ratio, and the target it is judged against. The
/// clients are NetworkLayer and raw URLSession unless ``measured`` and ``baseline`` name others.
struct Row: Codable, Sendable {
    let workload: String
    let unit: String
    let layer: Double
    let raw: Double
    /// NetworkLayer / raw for throughput; for memory and main-queue time, NetworkLayer − raw.
    let comparison: Double
    let target: String
    let met: Bool?
    let layerRounds: [Double]
    let rawRounds: [Double]
    /// The client in the NetworkLayer column when it is another one (`nil`: the plain layer).
    var measured: String? = nil
    /// The client in the baseline column when it is not raw URLSession.
    var baseline: String? = nil
    /// Requests that failed or timed out while the row was measured, warm-up included. Any fails the run.
    var errors = 0
}

/// How much work each workload does. `standard` is the published run; `smoke` only proves the harness works.
struct Counts: Sendable {
    var rounds = 5
    var smallSequential = 2_000
    var smallConcurrent = 4_000
    var postSequential = 2_000
    var largeAt8 = 48
    var largeAt64 = 96
    var memoryRequests = 50_000
    /// The size of the download and of the upload in the transfer workloads.
    var transferBytes = 200_000_000

    static let smoke = Counts(
        rounds: 1, smallSequential: 5, smallConcurrent: 10, postSequential: 5, largeAt8: 2, largeAt64: 3,
        memoryRequests: 20, transferBytes: 1_000_000)
}

/// The workloads, each run on both clients, alternating A, B, A, B to cancel drift.
struct Workloads {
    let layer: BenchmarkClient
    let raw: BenchmarkClient
    /// Raw URLSession driven by a delegate, as the layer must drive it (see ``RawDelegateClient``).
    let rawDelegate: BenchmarkClient
    /// Raw URLSession decoding on a concurrent queue, as Get does (see ``RawConcurrentClient``).
    let rawConcurrent: BenchmarkClient
    /// The layer with a retry policy and interceptors, for the "policies on" workload.
    let policies: BenchmarkClient
    /// The layer with a `NetworkLogger` at `.requests` writing to a sink that drops the text.
    let logged: BenchmarkClient
    /// The layer with a started `NetworkInspector`; inert (and its row left out) in a build without DEBUG.
    let inspected: LayerClient
    /// The layer with its default memory cache, for the cache rows.
    let cached: BenchmarkClient
    /// The layer with its scheduler off, for the scheduler rows.
    let unscheduled: BenchmarkClient
    let queue: DispatchQueue
    let counts: Counts
    var log: (String) -> Void = { _ in }
    /// The embedded server's count of requests received; `nil` with an external server.
    var serverRequests: (@Sendable () -> Int)?
    /// Makes paths of requests in flight together differ, so the layer's sharing of identical requests
    /// doesn't turn a throughput row into a sharing one (see ``schedulerRows()``).
    private let distinct = RequestCounter()
    /// Runs only the workloads whose name contains this text.
    var only: String?
    /// Counts each row's failed requests (see ``Row/errors``).
    let failures = FailureTally()

    /// Every row; each measurement's failed requests are counted into the rows it makes. The share of
    /// the two-decoder ceiling is derived from two of them, and follows the ceiling.
    func runAll() -> [Row] {
        let features: [() -> [Row?]] = [
            { [decodeCeiling()] },
            { [memoryGrowth()] },
            { overhead(of: policies, named: "policies on", target: 0.97) },
            { overhead(of: logged, named: "NetworkLogger(.requests) to a dropping sink", target: 0.95) },
            {
                inspected.isInert
                    ? [] : overhead(of: inspected, named: "NetworkInspector, serving", target: 0.95)
            },
        ]
        let later: [() -> [Row?]] = [{ [firstResponse()] }, { mainQueueTime() }, { costPerRequest() }]
        let measurements = transportRows() + features + cacheRows() + later + schedulerRows()
        let rows = measurements.flatMap(failures.counting)
        return selected(Self.ceilingShare) ? Self.withCeilingShare(rows) : rows
    }

    /// The throughput rows: small and large GETs, and small POSTs, against raw URLSession.
    private func transportRows() -> [() -> [Row?]] {
        let small: Start = { $0.get("small.json", as: [Record].self, completion: $1) }
        let distinctSmall: Start = { [distinct] in
            $0.get("small.json?n=\(distinct.next())", as: [Record].self, completion: $1)
        }
        let distinctLarge: Start = { [distinct] in
            $0.get("large.json?n=\(distinct.next())", as: [Record].self, completion: $1)
        }
        let post: Start = {
            $0.post("echo", body: Greeting(id: 7, message: "hello"), as: Greeting.self, completion: $1)
        }
        let (sequential, concurrent) = (counts.smallSequential, counts.smallConcurrent)
        let concurrently = ", vs raw URLSession decoding concurrently"
        return [
            {
                [throughput("GET ~1 KB JSON, sequential", count: sequential, inFlight: 1, target: 1.0, small)]
            },
            {
                [
                    throughput(
                        "GET ~1 KB JSON, 64 in flight", count: concurrent, inFlight: 64, target: 1.0,
                        distinctSmall)
                ]
            },
            {
                [
                    throughput(
                        "GET ~1 KB JSON, 64 in flight, vs raw URLSession driven by a delegate",
                        count: concurrent, inFlight: 64, target: nil, against: rawDelegate, distinctSmall)
                ]
            },
            {
                [
                    throughput(
                        "GET ~1 KB JSON, 64 in flight" + concurrently, count: concurrent, inFlight: 64,
                        target: nil, against: rawConcurrent, distinctSmall)
                ]
            },
            {
                [
                    throughput(
                        "POST small JSON, sequential", count: counts.postSequential, inFlight: 1, target: 1.0,
                        post)
                ]
            },
            {
                [
                    throughput(
                        "GET ~1 MB JSON, 8 in flight", count: counts.largeAt8, inFlight: 8, target: nil,
                        distinctLarge)
                ]
            },
            {
                [
                    throughput(
                        "GET ~1 MB JSON, 8 in flight" + concurrently, count: counts.largeAt8, inFlight: 8,
                        target: nil, against: rawConcurrent, distinctLarge)
                ]
            },
            {
                [
                    throughput(
                        Self.largeAt64, count: counts.largeAt64, inFlight: 64, target: 1.8, distinctLarge)
                ]
            },
            {
                [
                    throughput(
                        Self.largeAt64 + concurrently, count: counts.largeAt64, inFlight: 64, target: 1.0,
                        against: rawConcurrent, distinctLarge)
                ]
            },
        ]
    }

    /// Whether `--only` asks for the row `name`, or for a row derived from it (the share of the
    /// two-decoder ceiling, which needs both of its rows measured in the run).
    func selected(_ name: String) -> Bool {
        guard let only else { return true }
        return name.localizedCaseInsensitiveContains(only)
            || (Self.ceilingShareSources.contains(name)
                && Self.ceilingShare.localizedCaseInsensitiveContains(only))
    }

    typealias Start = (BenchmarkClient, @escaping (Bool) -> Void) -> Void

    func requestsPerSecond(
        _ client: BenchmarkClient, count: Int, inFlight: Int, _ start: @escaping Start
    ) -> Double {
        guard
            let (seconds, failures) = LoadRunner.run(
                count: count, inFlight: inFlight, on: queue, start: { start(client, $0) })
        else {
            log("  \(client.name): timed out")
            self.failures.add(count)
            return 0
        }
        if failures > 0 { log("  \(client.name): \(failures) of \(count) requests failed") }
        self.failures.add(failures)
        return Double(count - failures) / seconds
    }

    /// The layer against `baseline` (raw URLSession with a completion handler unless named).
    private func throughput(
        _ name: String, count: Int, inFlight: Int, target: Double?, against baseline: BenchmarkClient? = nil,
        _ start: @escaping Start
    ) -> Row? {
        guard selected(name) else { return nil }
        log(name)
        let other = baseline ?? raw
        // Warm both clients' connections and code paths before measuring; before a burst, one request
        // alone (see ``settleOnOneConnection(_:_:)``).
        if inFlight > 1 { settleOnOneConnection([layer, other], start) }
        _ = requestsPerSecond(layer, count: min(count, inFlight * 2), inFlight: inFlight, start)
        _ = requestsPerSecond(other, count: min(count, inFlight * 2), inFlight: inFlight, start)
        var layerRounds: [Double] = []
        var rawRounds: [Double] = []
        for _ in 0..<counts.rounds {
            layerRounds.append(requestsPerSecond(layer, count: count, inFlight: inFlight, start))
            rawRounds.append(requestsPerSecond(other, count: count, inFlight: inFlight, start))
        }
        let ratio = median(layerRounds) / max(median(rawRounds), .leastNonzeroMagnitude)
        return Row(
            workload: name, unit: "requests/s", layer: median(layerRounds), raw: median(rawRounds),
            comparison: ratio,
            target: target.map { "ratio ≥ \($0)" } ?? "none", met: target.map { ratio >= $0 },
            layerRounds: layerRounds,
            rawRounds: rawRounds, baseline: baseline?.name)
    }

    /// Sends one request alone on each client, so that a burst finds its connection up: over HTTP/2 each
    /// client then sends everything on one connection, as RFC 9113 (9.1) asks of clients. Without it, a
    /// client whose first contact is a burst of 64 races libcurl's connection setup and spreads over
    /// several connections (raw URLSession: 3 to 5 here; the layer: 1), and a row's figure would depend on
    /// which rows ran before it (`--only`).
    func settleOnOneConnection(_ clients: [BenchmarkClient], _ start: @escaping Start) {
        for client in clients { _ = requestsPerSecond(client, count: 1, inFlight: 1, start) }
    }

    /// What a variant of the layer costs on small sequential GETs: the variant, the plain layer and raw
    /// URLSession in the same rounds (the order rotating from round to round). Two rows: the variant
    /// against the plain layer (judged by `target`), and the plain layer against raw URLSession in
    /// those rounds.
    private func overhead(of variant: BenchmarkClient, named label: String, target: Double) -> [Row] {
        let name = "GET ~1 KB JSON, sequential, \(label)"
        guard selected(name) else { return [] }
        log(name)
        let start: Start = { $0.get("small.json", as: [Record].self, completion: $1) }
        let clients = [variant, layer, raw]
        for client in clients {
            _ = requestsPerSecond(client, count: min(counts.smallSequential, 2), inFlight: 1, start)
        }
        var rounds: [[Double]] = [[], [], []]
        for round in 0..<counts.rounds {
            for offset in 0..<clients.count {
                let index = (round + offset) % clients.count
                rounds[index].append(
                    requestsPerSecond(clients[index], count: counts.smallSequential, inFlight: 1, start))
            }
        }
        let (on, plain, bare) = (median(rounds[0]), median(rounds[1]), median(rounds[2]))
        let ratio = on / max(plain, .leastNonzeroMagnitude)
        return [
            Row(
                workload: name, unit: "requests/s", layer: on, raw: plain, comparison: ratio,
                target: "ratio ≥ \(target)", met: ratio >= target, layerRounds: rounds[0],
                rawRounds: rounds[1],
                measured: label, baseline: "plain layer"),
            Row(
                workload: "GET ~1 KB JSON, sequential, plain layer in the \(label) rounds",
                unit: "requests/s",
                layer: plain, raw: bare, comparison: plain / max(bare, .leastNonzeroMagnitude),
                target: "none", met: nil, layerRounds: rounds[1], rawRounds: rounds[2]),
        ]
    }

    /// What the cache saves and costs, on small sequential GETs: a fresh hit against the network round
    /// trip, a 304 revalidation against a full 200, and the cache on but never hit against the cache
    /// off (the cost a request pays for the cache when nothing useful is stored).
    private func cacheRows() -> [() -> [Row?]] {
        [
            {
                [
                    pair(
                        "GET ~1 KB JSON, sequential, fresh cache hit vs network",
                        (cached, "fresh.json", "cache hit"), (layer, "fresh.json", "network"), target: nil)
                ]
            },
            {
                [
                    pair(
                        "GET ~1 KB JSON, sequential, 304 revalidation vs full 200",
                        (cached, "etag.json", "304"),
                        (layer, "etag.json", "full 200"), target: nil)
                ]
            },
            {
                [
                    pair(
                        "GET ~1 KB JSON, sequential, cache on but missing vs cache off",
                        // A new query each time: every request misses (nginx's Last-Modified would otherwise
                        // make the file heuristically fresh), and each reply is stored, as a miss costs.
                        (cached, "small.json?miss=#", "cache on"), (layer, "small.json?miss=#", "cache off"),
                        target: 0.97)
                ]
            },
        ]
    }

    /// Two clients (or paths) in the same rounds, alternating, on small sequential GETs.
    func pair(
        _ name: String, _ measured: (BenchmarkClient, String, String),
        _ baseline: (BenchmarkClient, String, String),
        target: Double?, inFlight: Int = 1, count: Int? = nil
    ) -> Row? {
        let count = count ?? counts.smallSequential
        guard selected(name) else { return nil }
        log(name)
        let sides = [measured, baseline]
        let counter = RequestCounter()
        let starts: [Start] = sides.map { side in
            {
                let path = side.1.replacingOccurrences(of: "#", with: String(counter.next()))
                $0.get(path, as: [Record].self, completion: $1)
            }
        }
        for index in sides.indices {
            _ = requestsPerSecond(
                sides[index].0, count: min(count, inFlight * 2), inFlight: inFlight, starts[index])
        }
        var rounds: [[Double]] = [[], []]
        for round in 0..<counts.rounds {
            for offset in 0..<2 {
                let index = (round + offset) % 2
                rounds[index].append(
                    requestsPerSecond(sides[index].0, count: count, inFlight: inFlight, starts[index]))
            }
        }
        let (on, off) = (median(rounds[0]), median(rounds[1]))
        let ratio = on / max(off, .leastNonzeroMagnitude)
        return Row(
            workload: name, unit: "requests/s", layer: on, raw: off, comparison: ratio,
            target: target.map { "ratio ≥ \($0)" } ?? "none", met: target.map { ratio >= $0 },
            layerRounds: rounds[0], rawRounds: rounds[1], measured: measured.2, baseline: baseline.2)
    }

    /// Resident memory growth per request over many small GETs, for each client in turn.
    private func memoryGrowth() -> Row? {
        let name = "memory growth over \(counts.memoryRequests) small GETs"
        guard selected(name) else { return nil }
        log(name)
        func growth(_ client: BenchmarkClient) -> Double {
            let start: Start = { $0.get("small.json", as: [Record].self, completion: $1) }
            _ = requestsPerSecond(client, count: 2_000, inFlight: 64, start)
            let before = ProcessStats.residentBytes() ?? 0
            _ = requestsPerSecond(client, count: counts.memoryRequests, inFlight: 64, start)
            let after = ProcessStats.residentBytes() ?? 0
            return Double(after - before) / Double(counts.memoryRequests)
        }
        let rawGrowth = growth(raw)
        let layerGrowth = growth(layer)
        return Row(
            workload: name, unit: "bytes/request", layer: layerGrowth, raw: rawGrowth,
            comparison: layerGrowth - rawGrowth,
            target: "layer − raw ≤ 10", met: layerGrowth - rawGrowth <= 10, layerRounds: [layerGrowth],
            rawRounds: [rawGrowth])
    }

    /// CPU time the main thread spends per request while handlers are delivered on the main queue, in
    /// user space (the code that ran there) and in the kernel (waking the thread, which depends on timing).
    private func mainQueueTime() -> [Row] {
        let name = "main-queue CPU per request (sequential small GET)"
        guard queue.label == DispatchQueue.main.label, ProcessStats.mainThreadCPU() != nil, selected(name)
        else {
            return []
        }
        log(name)
        let start: Start = { $0.get("small.json", as: [Record].self, completion: $1) }
        func microseconds(_ client: BenchmarkClient) -> ProcessStats.ThreadCPU {
            let before = ProcessStats.mainThreadCPU() ?? .init(user: 0, system: 0)
            _ = requestsPerSecond(client, count: counts.smallSequential, inFlight: 1, start)
            let after = ProcessStats.mainThreadCPU() ?? .init(user: 0, system: 0)
            let scale = 1e6 / Double(counts.smallSequential)
            return .init(
                user: (after.user - before.user) * scale, system: (after.system - before.system) * scale)
        }
        var layerRounds: [ProcessStats.ThreadCPU] = []
        var rawRounds: [ProcessStats.ThreadCPU] = []
        for _ in 0..<counts.rounds {
            layerRounds.append(microseconds(layer))
            rawRounds.append(microseconds(raw))
        }
        func row(_ part: String, _ value: (ProcessStats.ThreadCPU) -> Double) -> Row {
            let layerValues = layerRounds.map(value)
            let rawValues = rawRounds.map(value)
            return Row(
                workload: "\(name), \(part)", unit: "µs/request", layer: median(layerValues),
                raw: median(rawValues),
                comparison: median(layerValues) - median(rawValues), target: "only the handler's own time",
                met: nil,
                layerRounds: layerValues, rawRounds: rawValues)
        }
        return [row("user space", \.user), row("kernel", \.system)]
    }
}

extension Workloads {
    /// What one small GET at 64 in flight costs the whole process, in context switches and CPU time,
    /// for each client measured alone: the difference between a long and a short run divided by the
    /// difference in requests, so that warming up and the run's own start and end cancel out.
    func costPerRequest() -> [Row] {
        processCost(of: layer, against: raw, label: nil)
    }

    /// Context switches and CPU per request of `measured` against `baseline` (raw URLSession unless
    /// `label` names the comparison), by the difference between a short and a long run of each.
    func processCost(
        of measured: BenchmarkClient, against baseline: BenchmarkClient, label: String?,
        cpuTarget: Double = 1.1
    ) -> [Row] {
        let name = "cost per request (GET ~1 KB JSON, 64 in flight\(label.map { ", \($0)" } ?? ""))"
        guard selected(name), ProcessStats.processCost() != nil else { return [] }
        log(name)
        let start: Start = { [distinct] in
            $0.get("small.json?n=\(distinct.next())", as: [Record].self, completion: $1)
        }
        let (short, long) = (counts.smallConcurrent / 2, counts.smallConcurrent * 3 / 2)
        func cost(_ client: BenchmarkClient, _ count: Int) -> ProcessStats.ProcessCost {
            let before = ProcessStats.processCost() ?? .init(contextSwitches: 0, cpuSeconds: 0)
            _ = requestsPerSecond(client, count: count, inFlight: 64, start)
            let after = ProcessStats.processCost() ?? before
            return .init(
                contextSwitches: after.contextSwitches - before.contextSwitches,
                cpuSeconds: after.cpuSeconds - before.cpuSeconds)
        }
        func perRequest(_ client: BenchmarkClient) -> ProcessStats.ProcessCost {
            let small = cost(client, short)
            let large = cost(client, long)
            let requests = Double(long - short)
            return .init(
                contextSwitches: (large.contextSwitches - small.contextSwitches) / requests,
                cpuSeconds: (large.cpuSeconds - small.cpuSeconds) / requests)
        }
        var layerRounds: [ProcessStats.ProcessCost] = []
        var rawRounds: [ProcessStats.ProcessCost] = []
        for _ in 0..<counts.rounds {
            layerRounds.append(perRequest(measured))
            rawRounds.append(perRequest(baseline))
        }
        let switchesL = layerRounds.map(\.contextSwitches)
        let switchesR = rawRounds.map(\.contextSwitches)
        let cpuL = layerRounds.map { $0.cpuSeconds * 1e6 }
        let cpuR = rawRounds.map { $0.cpuSeconds * 1e6 }
        let switchGap = median(switchesL) - median(switchesR)
        let cpuRatio = median(cpuL) / max(median(cpuR), .leastNonzeroMagnitude)
        let suffix = label.map { ", \($0)" } ?? ""
        let names = label == nil ? (nil, nil) : (measured.name, baseline.name)
        return [
            Row(
                workload: "context switches per request, 64 in flight\(suffix)", unit: "switches/request",
                layer: median(switchesL), raw: median(switchesR), comparison: switchGap,
                target: "layer − raw ≤ 3", met: switchGap <= 3, layerRounds: switchesL, rawRounds: switchesR,
                measured: names.0, baseline: names.1),
            Row(
                workload: "CPU per request, 64 in flight\(suffix)", unit: "µs/request", layer: median(cpuL),
                raw: median(cpuR), comparison: cpuRatio, target: "ratio ≤ \(cpuTarget)",
                met: cpuRatio <= cpuTarget, layerRounds: cpuL, rawRounds: cpuR, measured: names.0,
                baseline: names.1),
        ]
    }
}

/// Numbers paths that must differ from request to request.
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}
