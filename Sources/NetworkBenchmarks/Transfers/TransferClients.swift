import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One way of moving bytes, timed by the transfer workloads: start one transfer, report success once.
protocol TransferClient: AnyObject {
    var name: String { get }
    func download(_ url: URL, to destination: URL, completion: @escaping @Sendable (Bool) -> Void)
    func upload(_ file: URL, to url: URL, completion: @escaping @Sendable (Bool) -> Void)
}

/// The library: `NetworkRequest.download(urlString:to:)` and `upload(urlString:fileURL:)`, sent on the
/// shared session.
final class LayerTransferClient: TransferClient {
    let name = "NetworkLayer"
    private let network = NetworkLayer(callbackQueue: DispatchQueue(label: "benchmark-transfers"))

    func download(_ url: URL, to destination: URL, completion: @escaping @Sendable (Bool) -> Void) {
        network.send(
            .download(urlString: url.absoluteString, to: destination, options: [.replaceExisting, .restart]),
            successHandler: { _ in completion(true) }, errorHandler: { _ in completion(false) })
    }

    func upload(_ file: URL, to url: URL, completion: @escaping @Sendable (Bool) -> Void) {
        let expected = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        network.send(
            NetworkRequest<UploadReceipt>.upload(urlString: url.absoluteString, fileURL: file),
            successHandler: { response in completion(response.value.length == expected) },
            errorHandler: { _ in completion(false) })
    }
}

/// Raw URLSession as Linux allows it: a delegate-driven `downloadTask` whose file is moved into place
/// (the fastest raw form with flat memory), and `uploadTask(fromFile:)` or `httpBody` for uploads (the raw
/// forms that never send an empty body: a body stream is re-sent empty after a 401 or on a closed
/// kept-alive connection).
final class RawTransferClient: NSObject, TransferClient, URLSessionDownloadDelegate, @unchecked Sendable {
    enum UploadForm {
        case fromFile, httpBody
    }

    let name: String
    private let uploadForm: UploadForm
    private let lock = NSLock()
    private var pending: [Int: (destination: URL, completion: @Sendable (Bool) -> Void, moved: Bool)] = [:]
    private lazy var session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)

    init(uploadForm: UploadForm) {
        self.uploadForm = uploadForm
        name = uploadForm == .fromFile ? "raw downloadTask / uploadTask(fromFile:)" : "raw httpBody"
    }

    func download(_ url: URL, to destination: URL, completion: @escaping @Sendable (Bool) -> Void) {
        let task = session.downloadTask(with: url)
        lock.withLock { pending[task.taskIdentifier] = (destination, completion, false) }
        task.resume()
    }

    func upload(_ file: URL, to url: URL, completion: @escaping @Sendable (Bool) -> Void) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let expected = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, _, error in
            let receipt = data.flatMap { try? JSONDecoder().decode(UploadReceipt.self, from: $0) }
            completion(error == nil && receipt?.length == expected)
        }
        switch uploadForm {
        case .fromFile:
            session.uploadTask(with: request, fromFile: file, completionHandler: handler).resume()
        case .httpBody:
            request.httpBody = try? Data(contentsOf: file)
            session.dataTask(with: request, completionHandler: handler).resume()
        }
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        lock.withLock {
            guard var entry = pending[downloadTask.taskIdentifier] else { return }
            try? FileManager.default.removeItem(at: entry.destination)
            entry.moved = (try? FileManager.default.moveItem(at: location, to: entry.destination)) != nil
            pending[downloadTask.taskIdentifier] = entry
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.completion(error == nil && entry.moved)
    }
}
