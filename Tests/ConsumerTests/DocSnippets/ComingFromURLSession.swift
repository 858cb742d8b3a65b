import Foundation
import NetworkLayer

// The samples of ComingFromURLSession.md; ComingFromArticlesTests runs each against a MockServer.

enum ComingFromURLSessionSnippets {
    struct Entry: Codable, Equatable {
        let level: String
        let message: String
    }

    static func handlers(_ network: NetworkLayer, shown: @escaping (String) -> Void) -> NetworkTask {
        // URLSession.shared.dataTask(with: request) { data, response, error in … }.resume()
        let task = network.send(
            NetworkRequest<[Todo]>(urlString: "todos"),
            successHandler: { response in
                // On the main queue, decoded; a status outside 2xx went to the error handler instead
                let etag = response.headers["ETag"] ?? "-"
                shown("\(response.statusCode): \(response.value.count) todos, ETag \(etag)")
            },
            errorHandler: { error in shown(error.message) })
        return task  // cancel() it as a URLSessionTask; there is nothing to resume()
    }

    static func awaiting(_ network: NetworkLayer) async throws(NetworkError) -> ([Todo], TimeInterval?) {
        // let (data, response) = try await URLSession.shared.data(for: request)
        let response = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
        let todos = response.value  // decoded, and the status was 2xx
        let duration = response.metrics?.duration  // measured by the layer, on Linux too
        return (todos, duration)
    }

    static func lines(_ network: NetworkLayer) async throws -> [Entry] {
        // for try await line in try await URLSession.shared.bytes(for: request).0.lines { … }
        var entries: [Entry] = []
        for try await entry in network.stream(NetworkRequest(urlString: "logs"), as: .jsonLines(Entry.self)) {
            entries.append(entry)
        }
        return entries
    }

    static func transfers(_ network: NetworkLayer, to destination: URL, sending file: URL) async throws
        -> StoredDocument
    {
        // URLSession.shared.downloadTask(with: url) { temporaryURL, response, error in move the file … }
        let saved = try await network.send(.download(urlString: "files/report.pdf", to: destination)).value

        // URLSession.shared.uploadTask(with: request, fromFile: file) { data, response, error in … }
        let stored: StoredDocument = try await network.send(
            .upload(urlString: "documents", fileURL: file, contentType: "application/pdf")
        ).value
        print(saved.path, stored.id)
        return stored
    }

    static func cached(baseURL: URL?) -> (NetworkLayer, NetworkRequest<[Todo]>) {
        // configuration.urlCache = URLCache(memoryCapacity: 4_000_000, diskCapacity: 0)
        // request.cachePolicy = .returnCacheDataElseLoad
        let network = NetworkLayer(baseURL: baseURL, cache: ResponseCache(memoryCapacity: 4_000_000))
        var request = NetworkRequest<[Todo]>(urlString: "todos")
        request.cachePolicy = .returnCacheDataElseLoad
        return (network, request)
    }
}

/// `URLSessionTaskMetrics` from `urlSession(_:task:didFinishCollecting:)`, as a monitor: the time to the
/// first byte of every request, on every platform.
struct FirstByteMonitor: NetworkMonitor {
    let record: @Sendable (_ path: String, _ seconds: TimeInterval) -> Void

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        if let firstByte = metrics.timeToFirstByte { record(request.url?.path ?? "?", firstByte) }
    }
}
