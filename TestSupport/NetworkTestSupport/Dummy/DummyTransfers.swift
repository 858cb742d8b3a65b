import Foundation
import NetworkLayer

extension DummyExpectation {
    /// A download: a stubbed `Data` is written to `destination`, a stubbed file URL copied there, and the
    /// request succeeds with `destination`, as the real layer's does once the file is complete.
    static func download(_ type: Value.Type, to destination: URL) -> DummyExpectation<Value> {
        var expectation = DummyExpectation(
            type: type,
            cast: { value in
                guard DummyDownload.write(value, to: destination) else { return nil }
                return destination as? Value
            }, valueWhenUnstubbed: nil)
        expectation.dataFailure = .custom(
            "DummyNetworkLayer: the download could not be written to \(destination.path)")
        return expectation
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
final class DummyProgress {
    let handler: UncheckedSendable<(TransferProgress) -> Void>
    let transfer: TransferDescription
    let script: [TransferProgress]?
    /// Progress never goes backwards in the real layer: a retried request's handler sees the script
    /// once, not once per attempt.
    private let firstReport = Once()

    init?<Value>(_ request: NetworkRequest<Value>, script: [TransferProgress]?) {
        guard let handler = request.progressHandler, let transfer = request.transfer else { return nil }
        self.handler = UncheckedSendable(value: handler)
        self.transfer = transfer
        self.script = script
    }

    /// Reports before an answer that `succeeds` (or not) is delivered, where `delivery` runs handlers:
    /// in place, or on its queue ahead of the answer. Only the first attempt that reports anything does.
    func report(beforeAnswerThat succeeds: Bool, delivery: CallbackDelivery) {
        var steps = script ?? []
        if script == nil, succeeds, let total = totalBytes() {
            steps = [TransferProgress(completedBytes: total, expectedBytes: total)]
        }
        guard !steps.isEmpty, firstReport.claim() else { return }
        let handler = handler
        delivery.run { [steps] in
            for step in steps { handler.value(step) }
        }
    }

    /// Reports `completed` bytes now, where `delivery` runs handlers, for a test that moves a held
    /// transfer's progress by hand; the script and the final call are then left out, so the handler sees
    /// only what the test reported.
    func report(completed: Int64, expected: Int64?, delivery: CallbackDelivery) {
        _ = firstReport.claim()
        let (handler, step) = (handler, TransferProgress(completedBytes: completed, expectedBytes: expected))
        delivery.run { handler.value(step) }
    }

    /// The body's length for an upload; `nil` for a download, whose size the dummy has no header for.
    var uploadLength: Int64? {
        guard case .upload(let source) = transfer else { return nil }
        return try? source.length()
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

/// A held transfer's progress, and where its handler runs: what
/// ``DummyPendingRequest/reportProgress(completedBytes:expectedBytes:)`` reports through.
struct DummyProgressReport {
    let dummy: DummyProgress
    let delivery: CallbackDelivery
}
