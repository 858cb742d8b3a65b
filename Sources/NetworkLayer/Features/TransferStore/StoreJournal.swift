import Foundation

/// The journal a ``TransferStore`` hands the upload engine: what it reports becomes the record.
struct StoreJournal: UploadJournal {
    let store: TransferStore
    let id: UUID
    let resumePoint: (uploadURL: URL, offset: Int64)?

    func created(_ uploadURL: URL, then next: @escaping @Sendable () -> Void) {
        store.recordProgress(id, uploadURL: uploadURL, offset: 0, then: next)
    }

    func acknowledged(_ offset: Int64) {
        store.recordProgress(id, uploadURL: nil, offset: offset)
    }
}
