import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw URLSession driven by a delegate instead of a completion handler: the form that can see a reply's
/// head before its body (to refuse it, or to stop at a size limit) and answer redirects, as the layer
/// must. FoundationNetworking then hands three events per request to the delegate queue instead of one.
/// It separates what the delegate API costs from what the layer adds (GETs only). The session keeps its
/// delegate, so a client lives as long as the benchmark.
final class RawDelegateClient: NSObject, BenchmarkClient, URLSessionDataDelegate, @unchecked Sendable {
    let name = "raw URLSession, delegate"
    private let baseURL: URL
    private let decoder = JSONDecoder()
    private let callbackQueue: DispatchQueue
    private var session: URLSession!
    // Guarded by `lock`: each running task's bytes so far, and what finishes it.
    private let lock = NSLock()
    private var running: [Int: (body: Data, finish: (Data?) -> Void)] = [:]

    init(baseURL: URL, callbackQueue: DispatchQueue) {
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
        super.init()
        session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
    }

    func get<T: Decodable & SendableMetatype>(
        _ path: String, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        let decoder = decoder
        let queue = callbackQueue
        let completion = Unchecked(completion)
        let task = session.dataTask(with: URLRequest(url: baseURL.appendingBenchmarkPath(path)))
        let finish: (Data?) -> Void = { data in
            let ok = data.flatMap { try? decoder.decode(T.self, from: $0) } != nil
            queue.async { completion.value(ok) }
        }
        lock.withLock { running[task.taskIdentifier] = (Data(), finish) }
        task.resume()
    }

    func post<Body: Encodable, T: Decodable & SendableMetatype>(
        _ path: String, body: Body, as type: T.Type, completion: @escaping (Bool) -> Void
    ) {
        // Only the GET workloads run on this client.
        completion(false)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { running[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ running.removeValue(forKey: task.taskIdentifier) }) else { return }
        let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
        entry.finish(error == nil && (200..<300).contains(status) ? entry.body : nil)
    }
}
