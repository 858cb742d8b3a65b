import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one boundary between the layer and the URLSession it runs on: every place where
/// FoundationNetworking (swift-corelibs-foundation, on Linux) needs a workaround that Apple's URLSession
/// doesn't, so that on Apple platforms the native behaviour is used wherever it is correct.
///
/// | workaround | Linux (FoundationNetworking) | Apple |
/// |---|---|---|
/// | a redirect that would keep a body (307, 308; 301/302 of PUT, PATCH, DELETE) | refused: libcurl re-sends it with an empty body | followed: the body is sent again |
/// | a redirect or challenge of a task the layer has stopped | left unanswered: answering it stops the process | answered (`nil`, cancel): every completion handler must be called |
/// | an HTTP authentication challenge (`Basic`, `Digest`, NTLM) | cancelled, and turned back into the 401 or 407: it would wait forever | its protection space rejected, so the 401 or 407 arrives as the reply; server trust is evaluated as usual |
/// | an upload's body | the layer's own `InputStream` with the exact `Content-Length`, a fresh one when libcurl rewinds (fast, flat memory; `uploadTask(fromFile:)` is 4–6× slower) | an upload task from the body's file or from a temporary file holding a multipart body, or its bytes as `httpBody` (``NativeUploadBody``): CFNetwork doesn't support `InputStream` subclasses as body streams |
/// | an upload's `Content-Length` next to a body stream | a blank `Transfer-Encoding` stops libcurl adding `chunked` | native |
/// | the delegate queue | holds libcurl's thread back while a large reply arrives (``BackPressureQueue``) | a plain serial queue |
/// | URL cache | off: a lookup opens a window in which a cancel stops the process | off too: the layer's own ``ResponseCache`` replaces it on every platform |
/// | `waitsForConnectivity` | doesn't exist | turned off: the layer's idle deadline would fire while URLSession waits; a retry policy covers a missing connection |
/// | background configurations | refused | refused: data tasks and stream uploads don't run in them |
/// | a request's header fields | written in one go, names capitalized as `setValue` would store them: its `setValue` rebuilds the whole dictionary for each field (about 13,000 instructions a field) | written in one go, names as given |
/// | cookies replies set | stored by the layer, for replies with `Set-Cookie` (``SessionCookies``): FoundationNetworking parses every header line as one | stored by URLSession |
///
/// On both platforms the contract is the same: a challenge never sends stored credentials (the layer's
/// interceptors are where credentials come from), and a 401 or 407 is the reply.
enum PlatformSession {
    #if canImport(FoundationNetworking)
        /// Whether a redirected request loses its body.
        static let losesRedirectedBodies = true
        /// Whether a stopped task's redirect or challenge must be left unanswered.
        static let leavesStoppedTasksUnanswered = true
    #else
        static let losesRedirectedBodies = false
        static let leavesStoppedTasksUnanswered = false
    #endif

    #if canImport(FoundationNetworking)
        /// A header field's name as `setValue(_:forHTTPHeaderField:)` stores it, for the layer's own
        /// one-write header setting (`URLRequest.setHeaderFields(_:)`).
        static func storedHeaderName(_ name: String) -> String { name.capitalized }
    #else
        static func storedHeaderName(_ name: String) -> String { name }
    #endif

    #if canImport(FoundationNetworking)
        /// Whether uploads go out as an upload task's file or bytes (``NativeUploadBody``) rather than as
        /// the layer's body stream.
        static let sendsUploadsNatively = false
    #else
        static let sendsUploadsNatively = true
    #endif

    /// Why the layer can't run on `configuration`, or `nil` when it can.
    static func unsupported(_ configuration: URLSessionConfiguration) -> String? {
        guard configuration.identifier == nil else {
            return "A background session configuration (\(configuration.identifier ?? "")) can't run the "
                + "layer's data tasks and streamed uploads; pass a default or ephemeral configuration."
        }
        return nil
    }

    /// `configuration` as the layer needs it on this platform.
    static func adapt(_ configuration: URLSessionConfiguration) {
        configuration.urlCache = nil
        #if !canImport(FoundationNetworking)
            configuration.waitsForConnectivity = false
            // Stored credentials never answer a challenge: the 401 is the reply, as on Linux.
            configuration.urlCredentialStorage = nil
        #endif
    }

    /// Whether the layer stores the cookies replies set on a session made with `configuration`: on Linux
    /// it does (``SessionCookies``), switching FoundationNetworking's parsing of every header line off in
    /// `configuration`; on Apple platforms URLSession itself does. `false` too when the configuration
    /// accepts no cookies or has no storage.
    static func keepsCookies(of configuration: URLSessionConfiguration) -> Bool {
        #if canImport(FoundationNetworking)
            guard configuration.httpCookieAcceptPolicy != .never, configuration.httpCookieStorage != nil
            else {
                return false
            }
            configuration.httpCookieAcceptPolicy = .never
            return true
        #else
            return false
        #endif
    }

    /// Answers an HTTP authentication or server-trust challenge for `transfer`.
    static func answer(
        _ challenge: URLAuthenticationChallenge, for transfer: Transfer?, task: URLSessionTask,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // Only HTTP authentication reaches here on Linux (libcurl checks certificates itself).
            guard let transfer, !transfer.isStopped, task.state == .running else { return }
            transfer.declineChallenge()
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            let method = challenge.protectionSpace.authenticationMethod
            if method == NSURLAuthenticationMethodServerTrust
                || method == NSURLAuthenticationMethodClientCertificate
            {
                completionHandler(.performDefaultHandling, nil)
            } else {
                completionHandler(.rejectProtectionSpace, nil)
            }
        #endif
    }

    /// Stops reading a reply while its consumer is behind: a stream's handler, or a download's disk
    /// (delegate queue). On Linux a data task can't be suspended mid-reply (resuming sends the request
    /// again), so libcurl's thread is held at the delegate queue's gate, which holds back the session's
    /// other transfers too (their deadlines still run, and a stopped one ends at once). On Apple platforms
    /// the task is suspended.
    static func pauseReading(task: URLSessionTask, on queue: BackPressureQueue) {
        #if canImport(FoundationNetworking)
            queue.closeGate()
        #else
            task.suspend()
        #endif
    }

    /// Reads on after ``pauseReading(task:on:)`` (delegate queue); `task` is `nil` once it has ended.
    static func resumeReading(task: URLSessionTask?, on queue: BackPressureQueue) {
        #if canImport(FoundationNetworking)
            queue.openGate()
        #else
            task?.resume()
        #endif
    }
}
