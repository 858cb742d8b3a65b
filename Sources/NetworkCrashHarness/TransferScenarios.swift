import Foundation
import NetworkLayer

/// The transfer store's crash scenarios: an upload and a download through a store, each writing
/// `upload at <bytes>` as progress is reported and `upload N%` as it passes each percent, so the test can
/// kill the process where it chooses; then a process that lists and resumes what is left.
enum TransferScenarios {
    private static let queue = DispatchQueue(label: "NetworkCrashHarness.transfers")
    /// Keeps the store (and its claim) alive until the process ends.
    private static let kept = Locked<[AnyObject]>([])
    private static let printed = Locked<[StoredTransfer.Kind: Int]>([:])
    private static let running = Locked(0)

    /// `transfer-upload <directory> <base URL> <file>`: a tus upload of `file` to `files`.
    static func upload(_ arguments: [String]) {
        guard arguments.count == 3 else {
            HarnessOutput.fail("transfer-upload <directory> <base URL> <file>")
        }
        let store = open(directory: arguments[0], baseURL: arguments[1])
        var request = NetworkRequest.upload(
            urlString: "files", fileURL: URL(fileURLWithPath: arguments[2]), resumable: .tus)
        request.progressHandler = report(.upload)
        send(request, through: store, as: .upload)
    }

    /// `transfer-download <directory> <base URL> <path> <destination>`: a download of `path`.
    static func download(_ arguments: [String]) {
        guard arguments.count == 4 else {
            HarnessOutput.fail("transfer-download <directory> <base URL> <path> <destination>")
        }
        let store = open(directory: arguments[0], baseURL: arguments[1])
        var request = NetworkRequest.download(urlString: arguments[2], to: URL(fileURLWithPath: arguments[3]))
        request.progressHandler = report(.download)
        send(request, through: store, as: .download)
    }

    /// `transfer-resume <directory> <base URL>`: lists the unfinished transfers (`listed <kind>
    /// <completed> <expected>`), resumes each, and writes `all done` (then exits) when none is left.
    static func resume(_ arguments: [String]) {
        guard arguments.count == 2 else { HarnessOutput.fail("transfer-resume <directory> <base URL>") }
        let store = open(directory: arguments[0], baseURL: arguments[1])
        let transfers = store.unfinishedTransfers
        running.withLock { $0 = transfers.count }
        for transfer in transfers {
            HarnessOutput.line(
                "listed \(transfer.kind.rawValue) \(transfer.completedBytes) \(transfer.expectedBytes ?? -1)")
        }
        for transfer in transfers {
            do {
                try store.resume(
                    transfer, progressHandler: report(transfer.kind),
                    successHandler: { _ in ended(transfer.kind, "done") },
                    errorHandler: { ended(transfer.kind, "failed: \($0.message)") })
            } catch {
                HarnessOutput.fail("resume failed: \(error.message)")
            }
        }
        if transfers.isEmpty { ended(nil, "") }
    }

    private static func send(
        _ request: NetworkRequest<URL>, through store: TransferStore, as kind: StoredTransfer.Kind
    ) {
        running.withLock { $0 = 1 }
        do {
            try store.send(
                request, successHandler: { _ in ended(kind, "done") },
                errorHandler: { ended(kind, "failed: \($0.message)") })
        } catch {
            HarnessOutput.fail("send failed: \(error.message)")
        }
        HarnessOutput.line("\(kind.rawValue) recorded")
    }

    /// Writes `<kind> at <bytes>` for each report, and a line for each whole percent passed.
    private static func report(_ kind: StoredTransfer.Kind) -> (TransferProgress) -> Void {
        { progress in
            HarnessOutput.line("\(kind.rawValue) at \(progress.completedBytes)")
            guard let expected = progress.expectedBytes, expected > 0 else { return }
            let percent = Int(progress.completedBytes * 100 / expected)
            let last = printed.withLock { printed in
                defer { printed[kind] = max(printed[kind] ?? 0, percent) }
                return printed[kind] ?? 0
            }
            for passed in stride(from: last + 1, through: percent, by: 1) {
                HarnessOutput.line("\(kind.rawValue) \(passed)%")
            }
        }
    }

    private static func ended(_ kind: StoredTransfer.Kind?, _ outcome: String) {
        if let kind { HarnessOutput.line("\(kind.rawValue) \(outcome)") }
        let left = running.withLock { running in
            running -= 1
            return running
        }
        guard left <= 0 else { return }
        HarnessOutput.line("all done")
        exit(0)
    }

    private static func open(directory: String, baseURL: String) -> TransferStore {
        guard let url = URL(string: baseURL) else { HarnessOutput.fail("bad base URL \(baseURL)") }
        let layer = NetworkLayer(baseURL: url, callbackQueue: queue, timeout: 60)
        do {
            let store = try TransferStore(directory: URL(fileURLWithPath: directory), layer: layer)
            kept.withLock { $0.append(store) }
            return store
        } catch {
            HarnessOutput.fail("open failed: \(error.message)")
        }
    }
}
