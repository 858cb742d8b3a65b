import Foundation

/// Where a resumable upload reports its progress with the server, so a later process can take it up:
/// a ``TransferStore`` hands one to the engine on the request. The engine calls it from its handlers;
/// an implementation must not block them (it writes elsewhere).
package protocol UploadJournal: Sendable {
    /// The upload resource and offset a previous run reached: the engine asks the server for its offset
    /// (`HEAD`) instead of creating the upload again. `nil` starts with a creation.
    var resumePoint: (uploadURL: URL, offset: Int64)? { get }
    /// The server created the upload at `uploadURL`, holding nothing yet: the engine sends nothing more
    /// until `next` runs, once the journal holds the URL (its write in the operating system's hands, or
    /// failed), on a queue of the journal's that may send (never the disk queue).
    func created(_ uploadURL: URL, then next: @escaping @Sendable () -> Void)
    /// The server holds the first `offset` bytes.
    func acknowledged(_ offset: Int64)
}
