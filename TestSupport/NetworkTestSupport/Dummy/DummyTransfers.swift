import Foundation
import NetworkLayer

extension DummyExpectation {
    /// A download: a stubbed `Data` is written to `destination`, a stubbed file URL copied there, and the
    /// request succeeds with `destination`, as the real layer's does once the file is complete.
    static func download(_ type: Value.Type, to destination: URL) -> DummyExpectation<Value> {
        let write = { (value: Any) -> Value? in
            guard DummyDownload.write(value, to: destination) else { return nil }
            return destination as? Value
        }
        return DummyExpectation(
            type: type, cast: write,
            decode: { data throws(NetworkError) in
                guard let value = write(data) else {
                    throw .custom(
                        "DummyNetworkLayer: the download could not be written to \(destination.path)")
                }
                return value
            },
            valueWhenUnstubbed: nil)
    }
}

/// How ``DummyNetworkLayer`` answers a download: with the stubbed bytes or file, written to the
/// destination.
enum DummyDownload {
    /// Writes `value` (`Data`, or the URL of a file to copy) to `destination`; `false` for anything else
    /// or when writing fails.
    static func write(_ value: Any, to destination: URL) -> Bool {
        switch value {
        case let data as Data:
            return (try? data.write(to: destination, options: .atomic)) != nil
        case let source as URL where source.isFileURL:
            try? FileManager.default.removeItem(at: destination)
            return (try? FileManager.default.copyItem(at: source, to: destination)) != nil
        default:
            return false
        }
    }
}

/// The progress ``DummyNetworkLayer`` reports for a transfer: the scripted steps, or else one call with
/// every byte before a success, as the real layer's last call.
struct DummyProgress {
    let handler: UncheckedSendable<(TransferProgress) -> Void>
    let transfer: TransferDescription
    let script: [TransferProgress]?

    init?<Value>(_ request: NetworkRequest<Value>, script: [TransferProgress]?) {
        guard let handler = request.progressHandler, let transfer = request.transfer else { return nil }
        self.handler = UncheckedSendable(value: handler)
        self.transfer = transfer
        self.script = script
    }

    /// Reports, before `result` is delivered: at once without a queue, else on `queue` ahead of it.
    func report<Value>(before result: Result<Value, NetworkError>, on queue: DispatchQueue?) {
        var steps = script ?? []
        if script == nil, case .success = result, let total = totalBytes() {
            steps = [TransferProgress(completedBytes: total, expectedBytes: total)]
        }
        for step in steps {
            if let queue {
                let handler = handler
                queue.async { handler.value(step) }
            } else {
                handler.value(step)
            }
        }
    }

    private func totalBytes() -> Int64? {
        switch transfer {
        case .download(let target):
            let attributes = try? FileManager.default.attributesOfItem(atPath: target.destination.path)
            return (attributes?[.size] as? NSNumber)?.int64Value
        case .upload(let source):
            return try? source.length()
        }
    }
}
