import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate routes one task's events to: a ``DataTransfer`` (a reply in memory), a
/// ``DownloadTransfer`` (a reply to a file) or an ``UploadTransfer`` (a body from a stream).
///
/// Every method but ``newBodyStream()`` runs on the session's serial delegate queue.
protocol SessionTaskHandler: AnyObject, Sendable {
    /// The requesting layer's rules for following redirects.
    var redirectPolicy: RedirectPolicy { get }
    /// Whether the layer has stopped the task (a redirect must then not be answered).
    var isStopped: Bool { get }
    /// A response head arrived; `false` cancels the task.
    func receive(_ response: URLResponse) -> Bool
    /// Body bytes arrived.
    func receive(_ data: Data)
    /// A redirect is being followed: what arrived so far belonged to the 3xx.
    func redirected()
    /// The server asked for credentials, and the layer declined.
    func declineChallenge()
    /// Body bytes went out.
    func sent(bodyBytes: Int64)
    /// libcurl rewinds the body to send it again (a kept-alive connection turned out closed): a fresh
    /// stream over the whole body. Called on libcurl's thread, which waits for the answer.
    func newBodyStream() -> InputStream?
    /// The task is over.
    func finish(with error: (any Error)?, response: URLResponse?)
}

extension SessionTaskHandler {
    func sent(bodyBytes: Int64) {}

    func newBodyStream() -> InputStream? { nil }
}

extension DataTransfer: SessionTaskHandler {}
