import Foundation
import NetworkLayer

// The samples of ComingFromAlamofire.md; ComingFromArticlesTests runs each against a MockServer.

/// An Alamofire presenter, ported: each request as the layer writes it, with the call it replaces.
final class TodoBoardPresenter {
    private let networkLayer: NetworkLayer
    private weak var view: TodoListView?

    init(view: TodoListView, networkLayer: NetworkLayer) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func load() {
        // AF.request(url).validate().responseDecodable(of: [Todo].self) { response in … }
        networkLayer.get(
            urlString: "todos",
            successHandler: { (todos: [Todo]) in self.view?.show(todos) },
            errorHandler: { error in self.view?.showError(error.message) })
    }

    func add(_ todo: Todo) {
        // AF.request(url, method: .post, parameters: todo, encoder: JSONParameterEncoder.default)
        //     .validate().responseDecodable(of: Todo.self) { response in … }
        networkLayer.post(
            urlString: "todos", body: todo,
            successHandler: { (created: Todo) in self.view?.show([created]) },
            errorHandler: { error in self.view?.showError(error.message) })
    }

    func todos() async throws(NetworkError) -> [Todo] {
        // try await AF.request(url).validate().serializingDecodable([Todo].self).value
        try await networkLayer.get(urlString: "todos")
    }
}

/// A `RequestRetrier` as an interceptor: one more attempt, a second later, when the server answers 409
/// because it is still busy with an earlier change.
struct ConflictRetrier: RequestInterceptor {
    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        if attempt.error.statusCode == 409, attempt.number == 1 {
            completion(.retryAfter(1))
        } else {
            completion(.doNotRetry)
        }
    }
}

/// An `EventMonitor` as a `NetworkMonitor`: reports every request slower than `threshold`.
struct SlowRequestMonitor: NetworkMonitor {
    let threshold: TimeInterval
    let report: @Sendable (String) -> Void

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        guard metrics.duration > threshold else { return }
        report("\(request.method.rawValue) \(request.url?.path ?? "?") took \(metrics.attempts) attempt(s)")
    }
}

enum ComingFromAlamofireSnippets {
    static func makeNetworkLayer(baseURL: URL?, report: @escaping @Sendable (String) -> Void) -> NetworkLayer
    {
        // Session(interceptor: Interceptor(adapters: [appVersion], retriers: [RetryPolicy(), conflicts]),
        //         eventMonitors: [slowRequests])
        let network = NetworkLayer(
            baseURL: baseURL,
            retryPolicy: RetryPolicy(maximumAttempts: 3),
            interceptors: [AppVersionHeader(), ConflictRetrier()],
            monitors: [SlowRequestMonitor(threshold: 0.5, report: report)])
        return network
    }

    static func transfer(
        _ network: NetworkLayer, report: Data, to destination: URL,
        shown: @escaping (String) -> Void
    ) {
        // AF.download(url, to: destination).downloadProgress { … }.responseURL { … }
        var download = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
        download.progressHandler = { progress in shown("\(progress.completedBytes) bytes") }
        network.send(
            download,
            successHandler: { response in shown("saved \(response.value.lastPathComponent)") },
            errorHandler: { error in shown(error.message) })

        // AF.upload(multipartFormData: { form in … }, to: url).responseDecodable(of: StoredDocument.self)
        var form = MultipartFormData()
        form.append("Quarterly report", name: "title")
        form.append(report, name: "file", fileName: "report.pdf", mimeType: "application/pdf")
        let upload = NetworkRequest<StoredDocument>.upload(urlString: "documents", multipart: form)
        network.send(upload) { result in
            shown((try? result.get()).map { "stored #\($0.value.id)" } ?? "upload failed")
        }
    }

    static func follow(_ network: NetworkLayer, shown: @escaping (String) -> Void) -> NetworkTask {
        // AF.streamRequest(url).responseStreamString { stream in … }
        network.stream(NetworkRequest<Data>(urlString: "live"), as: .serverSentEvents) { event in
            shown(event.data)
        } completionHandler: { result in
            switch result {
            case .success, .failure(.cancelled): break
            case .failure(let error): shown(error.message)
            }
        }
    }

    struct Balance: Codable, Equatable {
        let cents: Int
    }

    static func cachedLayer(baseURL: URL?, cacheFolder: URL) -> (NetworkLayer, NetworkRequest<Balance>) {
        // URLCache(memoryCapacity:diskCapacity:directory:) in the Session's configuration, and
        // ResponseCacher(behavior: .doNotCache) on one request
        let network = NetworkLayer(
            baseURL: baseURL,
            cache: ResponseCache(memoryCapacity: 4_000_000, diskCapacity: 50_000_000, directory: cacheFolder))
        let balance = NetworkRequest<Balance>(urlString: "balance", headers: ["Cache-Control": "no-store"])
        return (network, balance)
    }
}
