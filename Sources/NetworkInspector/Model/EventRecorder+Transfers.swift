import Foundation
import NetworkLayer

extension EventRecorder {
    /// A download's or an upload's progress: its row, the request's. An append (`PATCH`) to a resumable
    /// upload the inspector knows goes to that upload's row instead, its bytes counted on from the offset
    /// the server confirmed.
    func transferred(_ progress: TransferProgress, for request: MonitoredRequest, isUpload: Bool) {
        let url = redactor.url(request.url)
        let bytes = Int(progress.completedBytes)
        if isUpload, request.method == .patch {
            let upload = store.updateTransfer(Self.resumableID(url)) {
                $0.bytes = ($0.offset ?? 0) + bytes
                $0.state = "uploading"
            }
            if let upload { return publish(.transfer(upload)) }
        }
        let id = String(request.id)
        let kind = isUpload ? "upload" : "download"
        update(id, making: TransferRecord(id: id, kind: kind, url: url, bytes: 0, state: "")) {
            $0.bytes = bytes
            $0.total = progress.expectedBytes.map { Int($0) }
            $0.state = isUpload ? "uploading" : "downloading"
        }
    }

    /// A resumable upload's server holds `offset` bytes: the upload's row, made at its creation.
    func confirmedUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL) {
        let url = redactor.url(uploadURL)
        let id = Self.resumableID(url)
        update(id, making: TransferRecord(id: id, kind: "upload", url: url, bytes: 0, state: "")) {
            $0.offset = Int(offset)
            $0.bytes = Int(offset)
            $0.total = Int(length)
            $0.state = offset >= length ? "finished" : "uploading"
        }
    }

    /// A request ended: its transfer's row, if it has one, says how. A resumable upload's exchange that
    /// failed says so on the upload's row, until the upload goes on.
    func finishedTransfer(_ request: MonitoredRequest, error: NetworkError?) {
        var state = "finished"
        if case .cancelled? = error {
            state = "cancelled"
        } else if let error {
            state = "failed: " + error.message
        }
        update(String(request.id)) { $0.state = state }
        if error != nil, request.method == .patch || request.method == .head {
            update(Self.resumableID(redactor.url(request.url))) { $0.state = state }
        }
    }

    /// A resumable upload's row: one per upload URL, which each of its exchanges after the creation names.
    private static func resumableID(_ url: String) -> String {
        "resumable " + url
    }

    private func update(
        _ id: String, making record: @autoclosure () -> TransferRecord? = nil,
        _ change: (inout TransferRecord) -> Void
    ) {
        if let record = store.updateTransfer(id, make: record, change) { publish(.transfer(record)) }
    }
}
