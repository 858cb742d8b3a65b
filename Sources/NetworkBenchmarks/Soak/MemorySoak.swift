import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkBenchmarks --soak --base-url URL [--count N] [--processes N] [--clients a,b,...] [--together]`:
/// how resident memory grows over many small GETs to distinct URLs at 64 in flight (issue 49), each client
/// in a process of its own, the processes of the clients interleaved (raw, layer, ..., then the next round;
/// with `--together` a round's processes run at the same time). A process's figure is the least-squares
/// slope of resident memory over the second half of its requests, in bytes a request: the first half fills
/// what is bounded (the layer's cache, the allocator's arenas). Prints each process's slope with the load
/// average at its start, each client's median and range, and each client's difference to raw within a
/// round (median and range).
///
/// `--soak-case CLIENT --base-url URL [--count N]` runs one process's part alone, which is what to run
/// under `heaptrack`: the allocations still live at its end, at two counts, give what each request leaves
/// behind.
enum MemorySoak {
    /// The clients a soak can run: the raw ones differ only in their session's configuration.
    static let clientNames = [
        "raw", "raw-bare", "raw-renewed", "layer", "layer-nocache", "layer-logged",
        "layer-inspected",
    ]

    static func makeClient(_ name: String, baseURL: URL) -> (any BenchmarkClient)? {
        switch name {
        case "raw": return RawClient(baseURL: baseURL, callbackQueue: .main)
        case "raw-bare":
            // Every setting that might keep something per request switched off.
            let configuration = URLSessionConfiguration.default
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            configuration.urlCredentialStorage = nil
            return RawClient(baseURL: baseURL, callbackQueue: .main, configuration: configuration)
        case "raw-renewed":
            return RawClient(baseURL: baseURL, callbackQueue: .main, renewingSessionAfter: 5_000)
        case "layer": return LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .defaults)
        case "layer-nocache": return LayerClient(baseURL: baseURL, callbackQueue: .main)
        // A monitor that keeps each attempt until its request finishes: `NetworkLogger(.requests)`.
        case "layer-logged": return LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .logged)
        // The default layer with a started `NetworkInspector` (the last 500 requests): serves only with DEBUG.
        case "layer-inspected":
            return LayerClient(baseURL: baseURL, callbackQueue: .main, variant: .inspected(defaults: true))
        default: return nil
        }
    }

    /// One process's soak: prints `soak CLIENT slope=… whole=… failures=… seconds=… rss=…` and
    /// returns whether every request succeeded.
    static func runCase(_ name: String, baseURL: URL, count: Int, inFlight: Int = 64) -> Bool {
        guard let client = makeClient(name, baseURL: baseURL), ProcessStats.residentBytes() != nil else {
            say("soak \(name): unknown client, or no /proc here")
            return false
        }
        // Alive until the process exits, so what it holds (the layer's cache) is live at the end for
        // heaptrack in every run, rather than freed or not depending on when the last reference goes.
        kept.set(client)
        let recorder = SoakRecorder(step: max(1, count / 200))
        let start: (@escaping (Bool) -> Void) -> Void = { done in
            // Every request to a URL of its own, so sharing merges none and the cache stores each one.
            client.get("small.json?n=\(recorder.nextPath())", as: [Record].self) { ok in
                recorder.completed()
                done(ok)
            }
        }
        // The connections, the session and the allocator's arenas exist before anything is counted.
        // A busy machine takes minutes over 200,000 requests: the timeout only catches a hang.
        _ = LoadRunner.run(count: 2_000, inFlight: inFlight, on: .main, timeout: 3_600, start: start)
        DispatchQueue.main.sync { recorder.begin() }
        guard
            let (seconds, failures) = LoadRunner.run(
                count: count, inFlight: inFlight, on: .main, timeout: 4 * 3_600, start: start)
        else {
            say("soak \(name): timed out")
            return false
        }
        let samples = recorder.samples
        let secondHalf = samples.filter { $0.requests >= count / 2 }
        let whole = Double((samples.last?.bytes ?? 0) - (samples.first?.bytes ?? 0)) / Double(count)
        say(
            "soak \(name) slope=\(String(format: "%.1f", slope(secondHalf)))"
                + " whole=\(String(format: "%.1f", whole))"
                + " failures=\(failures) seconds=\(String(format: "%.1f", seconds))"
                + " rss=\((samples.last?.bytes ?? 0) / 1_000_000)MB")
        return failures == 0
    }

    private static let kept = SoakClientHolder()

    /// The least-squares slope of resident bytes over requests.
    static func slope(_ samples: [SoakRecorder.Sample]) -> Double {
        guard samples.count > 1 else { return 0 }
        let xs = samples.map { Double($0.requests) }
        let ys = samples.map { Double($0.bytes) }
        let (mx, my) = (xs.reduce(0, +) / Double(xs.count), ys.reduce(0, +) / Double(ys.count))
        let covariance = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let variance = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        return variance > 0 ? covariance / variance : 0
    }
}

/// Counts a soak's requests and samples resident memory every `step` completions. Touched only on the
/// callback queue (the main queue), where the load runner starts requests and completions arrive.
final class SoakRecorder: @unchecked Sendable {
    struct Sample {
        let requests: Int
        let bytes: Int
    }

    private let step: Int
    private var path = 0
    private var done = 0
    private var recording = false
    private(set) var samples: [Sample] = []

    init(step: Int) {
        self.step = step
        samples.reserveCapacity(256)
    }

    func nextPath() -> Int {
        path += 1
        return path
    }

    /// From now on completions are counted and sampled; the first sample is the baseline.
    func begin() {
        recording = true
        samples.append(Sample(requests: 0, bytes: ProcessStats.residentBytes() ?? 0))
    }

    func completed() {
        guard recording else { return }
        done += 1
        if done % step == 0 {
            samples.append(Sample(requests: done, bytes: ProcessStats.residentBytes() ?? 0))
        }
    }
}

/// Holds the soak's client for the rest of the process.
private final class SoakClientHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var client: (any BenchmarkClient)?

    func set(_ client: any BenchmarkClient) { lock.withLock { self.client = client } }
}
