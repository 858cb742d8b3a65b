import Foundation
import NetworkInspector
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a workload asks of a client: start one request and report success on the callback queue.
protocol BenchmarkClient: AnyObject {
    var name: String { get }
    func get<T: Decodable & SendableMetatype>(
        _ path: String, as type: T.Type, completion: @escaping (Bool) -> Void)
    func post<Body: Encodable, T: Decodable & SendableMetatype>(
        _ path: String, body: Body, as type: T.Type, completion: @escaping (Bool) -> Void)
}

/// The library under test, on its default shared session. Every variant but ``Variant/cacheOn`` has no
/// cache, so the transport rows measure the network path (nginx's static replies carry validators, which
/// a cache would turn into hits).
final class LayerClient: BenchmarkClient {
    let name: String
    private let network: NetworkLayer

    /// What the layer is given besides its base URL and queue.
    enum Variant {
        /// Nothing: the plain layer.
        case plain
        /// What an app with every policy on has: `RetryPolicy.default`, a `BearerTokenAuthenticator`
        /// holding a token, and one more interceptor adding a header. The requests succeed first time,
        /// so this measures what the policies cost a request that needs none.
        case policiesOn
        /// A `NetworkLogger` at `.requests` writing to a sink that drops the text.
        case logged
        /// The layer's default cache, a memory-only `ResponseCache`.
        case cacheOn
        /// The layer with ``RequestScheduling/disabled``: no sharing, no rate-limit gate.
        case schedulerOff
        /// The layer as the README makes it: every setting but the base URL and queue its default (a
        /// memory-only cache, sharing on).
        case defaults
        /// A started `NetworkInspector` as the layer's monitor, its default configuration (the last 500
        /// requests); with `cache: nil` beside ``logged``, or with ``defaults``' settings for the soak.
        case inspected(defaults: Bool)
    }

    init(baseURL: URL, callbackQueue: DispatchQueue, variant: Variant = .plain) {
        switch variant {
        case .plain:
            name = "NetworkLayer"
            network = NetworkLayer(baseURL: baseURL, callbackQueue: callbackQueue, cache: nil)
        case .schedulerOff:
            name = "NetworkLayer, scheduler off"
            network = NetworkLayer(
                baseURL: baseURL, callbackQueue: callbackQueue, cache: nil, scheduling: .disabled)
        case .defaults:
            name = "NetworkLayer, defaults"
            network = NetworkLayer(baseURL: baseURL, callbackQueue: callbackQueue)
        case .cacheOn:
            name = "NetworkLayer, cache on"
            network = NetworkLayer(baseURL: baseURL, callbackQueue: callbackQueue, cache: ResponseCache())
        case .policiesOn:
            name = "NetworkLayer, policies on"
            let authenticator = BearerTokenAuthenticator(accessToken: "benchmark-token") { completion in
                completion(.failure("The benchmark's token never expires"))
            }
            network = NetworkLayer(
                baseURL: baseURL, callbackQueue: callbackQueue, retryPolicy: .default,
                interceptors: [authenticator, ClientHeader()], cache: nil)
        case .logged:
            name = "NetworkLayer, logged"
            network = NetworkLayer(
                baseURL: baseURL, callbackQueue: callbackQueue,
                monitors: [NetworkLogger(level: .requests, sink: { _ in })], cache: nil)
        case .inspected(let defaults):
            let inspector = NetworkInspector()
            // Serving, as in an app's debug build. Without DEBUG the inspector records nothing and can't
            // start, so the name says the figure is not the inspector's.
            let serving = (try? inspector.start()) != nil
            name =
                "NetworkLayer, inspected" + (defaults ? ", defaults" : "")
                + (serving ? "" : " (inert: no DEBUG)")
            network =
                defaults
                ? NetworkLayer(baseURL: baseURL, callbackQueue: callbackQueue, monitors: [inspector])
                : NetworkLayer(
                    baseURL: baseURL, callbackQueue: callbackQueue, monitors: [inspector], cache: nil)
        }
    }

    /// Whether an inspector variant's inspector records and serves (a build with `DEBUG`).
    var isInert: Bool { name.hasSuffix("(inert: no DEBUG)") }

    func get<T: Decodable & SendableMetatype>(
        _ path: String, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        network.get(
            urlString: path, successHandler: { (_: T) in completion(true) },
            errorHandler: { _ in completion(false) })
    }

    /// Cache then network: `first` runs at the first response (the stored one when there is one),
    /// `done` at the completion.
    func getCacheThenNetwork(_ path: String, first: @escaping () -> Void, done: @escaping (Bool) -> Void) {
        var isFirst = true
        network.sendCacheThenNetwork(
            NetworkRequest<[Record]>(urlString: path),
            updateHandler: { _ in
                if isFirst { first() }
                isFirst = false
            }, completionHandler: { done($0 == nil) })
    }

    func post<Body: Encodable, T: Decodable & SendableMetatype>(
        _ path: String, body: Body, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        network.post(
            urlString: path, body: body, successHandler: { (_: T) in completion(true) },
            errorHandler: { _ in completion(false) })
    }
}

/// The trivial interceptor of the "policies on" client: one header.
struct ClientHeader: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue("NetworkBenchmarks", forHTTPHeaderField: "X-Client")
        completion(.success(request))
    }
}

/// The URLSession code the library replaces, written the way the articles write it: a data task with a
/// completion handler, `JSONDecoder` where the reply lands, then a hop to the caller's queue.
class RawClient: BenchmarkClient {
    let name: String
    private let baseURL: URL
    private var session: URLSession
    private let configuration: URLSessionConfiguration
    /// With a number, a new session replaces the old one after that many requests (the soak's
    /// `raw-renewed`, to see whether what a session keeps goes with it).
    private let renewal: Int?
    /// Requests on the current session; touched where requests start, on one queue.
    private var sent = 0
    private let decoder = JSONDecoder()
    private let encoder = JSONEncoder()
    private let callbackQueue: DispatchQueue
    /// Where replies are decoded; `nil`: where the completion handler runs, the session's serial
    /// delegate queue (see ``RawConcurrentClient``).
    private let decodingQueue: DispatchQueue?

    init(
        baseURL: URL, callbackQueue: DispatchQueue, configuration: URLSessionConfiguration = .default,
        renewingSessionAfter renewal: Int? = nil
    ) {
        name = "raw URLSession"
        decodingQueue = nil
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
        self.configuration = configuration
        self.renewal = renewal
        session = URLSession(configuration: configuration)
    }

    /// A client named `name` that decodes on `decodingQueue` (for ``RawConcurrentClient``).
    fileprivate init(name: String, baseURL: URL, callbackQueue: DispatchQueue, decodingQueue: DispatchQueue) {
        self.name = name
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
        self.decodingQueue = decodingQueue
        configuration = .default
        renewal = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    func get<T: Decodable & SendableMetatype>(
        _ path: String, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        send(URLRequest(url: baseURL.appendingBenchmarkPath(path)), as: type, completion: completion)
    }

    func post<Body: Encodable, T: Decodable & SendableMetatype>(
        _ path: String, body: Body, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        var request = URLRequest(url: baseURL.appendingBenchmarkPath(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? encoder.encode(body)
        send(request, as: type, completion: completion)
    }

    private func send<T: Decodable & SendableMetatype>(
        _ request: URLRequest, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        let decoder = decoder
        let state = Unchecked(
            (
                completion: completion, queue: callbackQueue,
                decode: { (data: Data) -> Any? in try? decoder.decode(T.self, from: data) }
            ))
        sent += 1
        if let renewal, sent > renewal {
            session.finishTasksAndInvalidate()
            session = URLSession(configuration: configuration)
            sent = 1
        }
        let decodingQueue = decodingQueue
        session.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let received = error == nil && (200..<300).contains(status)
            let finish: @Sendable () -> Void = {
                let value = state.value.decode(data ?? Data())
                let ok = received && value != nil
                // The decoded value travels to the caller's queue, as the articles' completion handlers
                // take it.
                let delivery = Unchecked(value)
                state.value.queue.async {
                    _ = delivery.value
                    state.value.completion(ok)
                }
            }
            if let decodingQueue { decodingQueue.async(execute: finish) } else { finish() }
        }.resume()
    }
}

/// Raw URLSession as a client that decodes concurrently writes it (Get decodes each reply in a detached
/// task): the completion handler, on the session's serial delegate queue, only hands the body to a
/// concurrent queue, where it is decoded, then the value hops to the caller's queue. Large replies then
/// decode on every core at once, as the layer's do, so this is the baseline that leaves the layer no
/// advantage from decoding off the delegate queue.
final class RawConcurrentClient: RawClient {
    init(baseURL: URL, callbackQueue: DispatchQueue) {
        super.init(
            name: "raw URLSession, decoding concurrently", baseURL: baseURL, callbackQueue: callbackQueue,
            decodingQueue: DispatchQueue(label: "raw-concurrent-decoding", attributes: .concurrent))
    }
}

/// Carries a non-Sendable value to the one queue that uses it next.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension URL {
    /// `path` below this URL; a query after `?` stays a query (`appendingPathComponent` would escape it).
    func appendingBenchmarkPath(_ path: String) -> URL {
        let parts = path.split(separator: "?", maxSplits: 1)
        let url = appendingPathComponent(String(parts.first ?? ""))
        guard parts.count == 2, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            return url
        }
        components.percentEncodedQuery = String(parts[1])
        return components.url ?? url
    }
}
