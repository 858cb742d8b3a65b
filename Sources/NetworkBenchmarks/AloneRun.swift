import Foundation

/// `NetworkBenchmarks --alone layer|unscheduled|policies|logged|inspected|cachemiss|raw|rawdelegate|rawconcurrent
/// [--path small.json] [--count N] [--in-flight N] [--threads] --base-url URL`: one client alone, for a profiler
/// (`perf stat -e context-switches,task-clock`, `perf record`) to watch without the others in the same process.
/// `policies`, `logged` and `inspected` are the layer as the table's "policies on", `NetworkLogger` and
/// `NetworkInspector` rows run it (`inspected` serves only in a build with `DEBUG`, a debug build);
/// `cachemiss` is the layer with its memory cache, each request to a new query (so each misses and is
/// stored), as the "cache on but missing" row runs it; `unscheduled` is the layer with its scheduler off;
/// `rawdelegate` is ``RawDelegateClient``; `rawconcurrent` is ``RawConcurrentClient``. Prints requests per
/// second; with `--threads` (Linux), also the CPU each of the busiest threads used while they were measured
/// (``ThreadProfile``).
enum AloneRun {
    static func run(
        client name: String, baseURL: URL, path: String, count: Int, inFlight: Int, threads: Bool = false
    ) -> Bool {
        let client: any BenchmarkClient =
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
        let counter = RequestCounter()
        let start: (@escaping (Bool) -> Void) -> Void = {
            // Requests in flight together differ, so sharing doesn't merge them (as in the table's rows).
            let path =
                name == "cachemiss"
                ? "\(path)?miss=\(counter.next())" : inFlight > 1 ? "\(path)?n=\(counter.next())" : path
            client.get(path, as: [Record].self, completion: $0)
        }
        // Warm the connections first, as the table's workloads do.
        _ = LoadRunner.run(count: inFlight * 2, inFlight: inFlight, on: .main, start: start)
        let before = threads ? ThreadProfile.sample() : nil
        guard
            let (seconds, failures) = LoadRunner.run(
                count: count, inFlight: inFlight, on: .main, start: start)
        else {
            say("\(client.name): timed out")
            return false
        }
        if let before, let after = ThreadProfile.sample() {
            ThreadProfile.report(from: before, to: after, seconds: seconds).forEach(say)
        }
        say(
            "\(client.name) alone: \(count) × \(path), \(inFlight) in flight: \(Int(Double(count - failures) / seconds)) requests/s, \(failures) failed"
        )
        return failures == 0
    }
}
