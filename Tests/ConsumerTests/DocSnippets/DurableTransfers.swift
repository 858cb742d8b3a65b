import Foundation
import NetworkLayer

// The Swift samples of the NetworkLayer catalog's "Durable transfers" article
// (Sources/NetworkLayer/NetworkLayer.docc/DurableTransfers.md), verbatim, so they keep compiling.

enum DurableTransferSnippets {
    static func makeStore(network: NetworkLayer) throws -> TransferStore {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let store = try TransferStore(directory: support.appendingPathComponent("Transfers"), layer: network)
        return store
    }
}

protocol TransfersView: AnyObject {
    func show(_ id: UUID, done: Int64, of expected: Int64?)
    func show(_ id: UUID, progress: TransferProgress)
    func showDone(_ id: UUID)
    func showFailure(_ id: UUID, _ message: String)
}

final class TransfersPresenter {
    private let store: TransferStore
    weak var view: TransfersView?

    init(store: TransferStore, view: TransfersView) {
        self.store = store
        self.view = view
    }

    /// At launch: what the last run left, each resumed from what is done.
    func resumeAll() {
        for transfer in store.unfinishedTransfers {
            view?.show(transfer.id, done: transfer.completedBytes, of: transfer.expectedBytes)
            _ = try? store.resume(
                transfer, ifSourceChanged: .startOver,
                progressHandler: { [weak self] in self?.view?.show(transfer.id, progress: $0) },
                successHandler: { [weak self] _ in self?.view?.showDone(transfer.id) },
                errorHandler: { [weak self] in self?.view?.showFailure(transfer.id, $0.message) })
        }
    }

    func upload(_ video: URL) throws(TransferStoreError) {
        var request = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: .tus)
        request.retryPolicy = RetryPolicy(maximumAttempts: 5)
        try store.send(request, successHandler: { _ in }, errorHandler: { _ in })
    }
}
