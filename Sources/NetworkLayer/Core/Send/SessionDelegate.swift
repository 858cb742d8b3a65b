import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: routes each task's events to its ``Transfer``. Events arrive on the serial
/// delegate queue, where the layer also stops tasks, so a stopped task's redirect is never answered
/// (it would stop the process) and an unanswerable `Basic` challenge is declined (it would wait
/// forever); see <doc:LinuxNotes>.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The session's mutable state, under one lock (its ``SessionTransport`` has none of its own): the
    /// transfers, added where requests start and looked up on the delegate queue, and what tests set.
    let state = Locked(State())

    struct State {
        var transfers: [Int: Transfer] = [:]
        var facts = PlatformFacts.current
        var downloadDisk: (any Sendable)?
        var dependencies: [any Sendable] = []
    }

    /// What the session does (``SessionTransport/facts``), read as each event arrives.
    var facts: PlatformFacts {
        get { state.withLock { $0.facts } }
        set { state.withLock { $0.facts = newValue } }
    }

    func add(_ transfer: Transfer, for task: URLSessionTask) {
        state.withLock { $0.transfers[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        state.withLock { $0.transfers[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = transfer(for: dataTask)?.receive(response) ?? true
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(bodyBytes: bytesSent)
    }

    /// libcurl re-sends on a kept-alive connection that turned out closed, on its own thread, waiting for
    /// the answer; without a new stream the exhausted one would go out as an empty body.
    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        completionHandler(transfer(for: task)?.newBodyStream())
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = state.withLock { $0.transfers.removeValue(forKey: task.taskIdentifier) }
        transfer?.finish(with: error, response: task.response)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let found = transfer(for: task)
        guard let transfer = found, !transfer.lifecycle.isStopped, task.state == .running else {
            found?.keepCookies(of: response)
            if facts.answersStoppedTasks { completionHandler(nil) }
            return
        }
        let next = transfer.redirectPolicy.request(
            following: response, to: request, from: task.originalRequest, facts: facts)
        // A redirect not followed arrives as the reply, and sets its cookies then.
        if next != nil { transfer.redirected(by: response) }
        completionHandler(next)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        PlatformSession.answer(
            challenge, for: transfer(for: task), task: task, completionHandler: completionHandler)
    }
}
