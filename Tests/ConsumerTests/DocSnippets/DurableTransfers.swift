import Foundation
import NetworkLayer

// The Swift samples of the NetworkLayer catalog's "Durable transfers" article
// (Sources/NetworkLayer/NetworkLayer.docc/DurableTransfers.md), verbatim, so they keep compiling.

enum DurableTransferSnippets {
    static func makeStore(network: NetworkLayer, recordKey: Data) throws -> TransferStore {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let store = try TransferStore(
            directory: support.appendingPathComponent("Transfers"), layer: network, recordKey: recordKey)
        return store
    }
}

protocol TransfersView: AnyObject {
    func show(_ file: URL, progress: TransferProgress)
    func showDone(_ file: URL)
    func showFailure(_ file: URL, _ message: String)
}

final class TransfersPresenter {
    private let store: TransferStore
    weak var view: TransfersView?

    init(store: TransferStore, view: TransfersView) {
        self.store = store
        self.view = view
    }

    /// A new upload: recorded before it starts, so a restart finds it.
    func upload(_ video: URL) {
        var request = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: .tus)
        request.retryPolicy = RetryPolicy(maximumAttempts: 5)  // five tries in a row without progress
        request.progressHandler = { [weak self] in self?.view?.show(video, progress: $0) }
        do {
            try store.send(
                request, successHandler: { [weak self] _ in self?.view?.showDone(video) },
                errorHandler: { [weak self] in self?.view?.showFailure(video, $0.message) })
        } catch {
            view?.showFailure(video, error.message)  // nothing was recorded or sent
        }
    }

    /// At launch: what the last run left, each resumed from what is done.
    func resumeAll() {
        for transfer in store.unfinishedTransfers {
            let file = transfer.file
            let done = TransferProgress(
                completedBytes: transfer.completedBytes, expectedBytes: transfer.expectedBytes)
            view?.show(file, progress: done)
            do {
                try store.resume(
                    transfer, ifSourceChanged: .startOver,
                    progressHandler: { [weak self] in self?.view?.show(file, progress: $0) },
                    successHandler: { [weak self] _ in self?.view?.showDone(file) },
                    errorHandler: { [weak self] in self?.view?.showFailure(file, $0.message) })
            } catch {
                view?.showFailure(file, error.message)
            }
        }
    }
}

/// The "Appends of one chunk" sample: a server that takes larger bodies gets fewer appends.
enum LargerAppends {
    static func request(for video: URL) -> NetworkRequest<URL> {
        var resumable = ResumableUpload.tus
        resumable.chunkSize = 8 << 20  // the server takes 8 MiB bodies
        let request = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: resumable)
        return request
    }
}
