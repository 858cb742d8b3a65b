import Foundation

/// `NetworkBenchmarks --alone layer|unscheduled|policies|logged|inspected|cachemiss|raw|rawdelegate|rawconcurrent
/// [--path small.json] [--count N] [--in-flight N] [--rounds N] [--threads] --base-url URL`: one client alone, for a profiler
/// (`perf stat -e context-switches,task-clock`, `perf record`) to watch without the others in the same process.
/// `policies`, `logged` and `inspected` are the layer as the table's "policies on", `NetworkLogger` and
/// `NetworkInspector` rows run it (`inspected` serves only in a build with `DEBUG`, a debug build);
/// `cachemiss` is the layer with its memory cache, each request to a new query (so each misses and is
/// stored), as the "cache on but missing" row runs it; `unscheduled` is the layer with its scheduler off;
/// `rawdelegate` is ``RawDelegateClient``; `rawconcurrent` is ``RawConcurrentClient``. Prints requests per
/// second; with `--threads` (Linux), also the CPU each of the busiest threads used while they were measured
/// (``ThreadProfile``).
enum AloneRun {
    /// `name` may list clients (`layer,raw`): each is warmed, then they take turns, `rounds` times, in one
    /// process, and the medians and each one's ratio to the first are printed. This separates what one
    /// client costs from what sharing a process with the others does to it (issue 49's TLS rows).
    static func run(
        client name: String, baseURL: URL, path: String, count: Int, inFlight: Int, rounds: Int = 1,
        threads: Bool = false
    ) -> Bool {
        let names = name.split(separator: ",").map(String.init)
        let clients = names.map { client(named: $0, baseURL: baseURL) }
        let counter = RequestCounter()
        let starts = zip(names, clients).map { name, client in
            { (done: @escaping (Bool) -> Void) in
                // Requests in flight together differ, so sharing doesn't merge them (as in the table's rows).
                let path =
                    name == "cachemiss"
                    ? "\(path)?miss=\(counter.next())" : inFlight > 1 ? "\(path)?n=\(counter.next())" : path
                client.get(path, as: [Record].self, completion: done)
            }
        }
        // Warm the connections first, as the table's workloads do: before a burst, one request alone (see
        // `Workloads.settleOnOneConnection(_:_:)`).
        for start in starts {
            if inFlight > 1 { _ = LoadRunner.run(count: 1, inFlight: 1, on: .main, start: start) }
            _ = LoadRunner.run(count: inFlight * 2, inFlight: inFlight, on: .main, start: start)
        }
        var rates = Array(repeating: [Double](), count: clients.count)
        for _ in 0..<max(1, rounds) {
            for (index, client) in clients.enumerated() {
                let before = threads ? ThreadProfile.sample() : nil
                guard
                    let (seconds, failures) = LoadRunner.run(
                        count: count, inFlight: inFlight, on: .main, start: starts[index])
                else {
                    say("\(client.name): timed out")
                    return false
                }
                if let before, let after = ThreadProfile.sample() {
                    ThreadProfile.report(from: before, to: after, seconds: seconds).forEach(say)
                }
                let rate = Double(count - failures) / seconds
                say(
                    "\(client.name) alone: \(count) × \(path), \(inFlight) in flight: \(Int(rate)) requests/s, \(failures) failed"
                )
                guard failures == 0 else { return false }
                rates[index].append(rate)
            }
        }
        guard clients.count > 1 else { return true }
        for (index, client) in clients.enumerated() {
            let ratio = median(rates[0]) / median(rates[index])
            say(
                "\(client.name): median \(Int(median(rates[index]))) requests/s over \(rates[index].count) turns; \(clients[0].name) / this: \(String(format: "%.2f", ratio))"
            )
        }
        return true
    }

    private static func client(named name: String, baseURL: URL) -> any BenchmarkClient {
        switch name {
        case "raw": RawClient(baseURL: baseURL, callbackQueue: .main)
        case "rawdelegate": RawDelegateClient(baseURL: baseURL, callbackQueue: .main)
        case "rawconcurrent": RawConcurrentClient(baseURL: baseURL, callbackQueue: .main)
        case "policies": LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .policiesOn)
        case "logged": LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .logged)
        case "inspected":
            LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .inspected(defaults: false))
        case "cachemiss": LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .cacheOn)
        case "unscheduled": LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .schedulerOff)
        default: LayerClient(baseURL: baseURL, callbackQueue: .main)
        }
    }
}
