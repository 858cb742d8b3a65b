import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one boundary between the layer and its URLSession: every workaround FoundationNetworking needs
/// and Apple's URLSession doesn't, so Apple platforms keep the native behaviour wherever it is correct.
/// What differs is named in ``PlatformFacts``; the table is in <doc:LinuxNotes>. On both, a challenge
/// never sends stored credentials and a 401 or 407 is the reply.
enum PlatformSession {
    /// Why the layer can't run on `configuration`, or `nil` when it can.
    static func unsupported(_ configuration: URLSessionConfiguration) -> String? {
        configuration.identifier.map {
            "A background session configuration (\($0)) can't run the "
                + "layer's data tasks and streamed uploads; pass a default or ephemeral configuration."
        }
    }

    /// Turns off what would answer for the layer. The URL cache everywhere. Where the session can wait for
    /// connectivity (Apple; FoundationNetworking only declares `waitsForConnectivity`, read-only and
    /// `false`), it doesn't, or the layer's idle deadline would fire while it waits; and stored
    /// credentials never answer a challenge, so the 401 is the reply, as on Linux.
    static func adapt(_ configuration: URLSessionConfiguration) {
        configuration.urlCache = nil
        #if !canImport(FoundationNetworking) || NETWORKLAYER_APPLE_BRANCHES
            configuration.waitsForConnectivity = false
            configuration.urlCredentialStorage = nil
        #endif
    }

    /// Switches the session's own cookie handling off where the layer handles cookies
    /// (``PlatformFacts/layerHandlesCookies``): it neither parses replies for cookies
    /// (`httpCookieAcceptPolicy` `.never`) nor adds the storage's cookies when a task is created
    /// (`httpShouldSetCookies`), so the cookie an attempt was keyed by is the one it carries.
    static func handOverCookies(of configuration: URLSessionConfiguration, facts: PlatformFacts) {
        guard facts.layerHandlesCookies, configuration.httpCookieStorage != nil else { return }
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
    }

    /// Answers an authentication challenge. Apple: the system checks certificates (server trust, client
    /// certificate: default handling); any other protection space is rejected, so the 401 or 407 is the
    /// reply. Linux: libcurl checks certificates itself, so only HTTP authentication arrives, and rejecting
    /// it ends the task with -999 and the reply lost (measured): the layer declines it instead, cancelling
    /// the task, and delivers the 401 or 407; a stopped task's challenge is left unanswered, as its
    /// redirect is (``PlatformFacts/answersStoppedTasks``).
    static func answer(
        _ challenge: URLAuthenticationChallenge, for transfer: Transfer?, task: URLSessionTask,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking) && !NETWORKLAYER_APPLE_BRANCHES
            guard let transfer, !transfer.lifecycle.isStopped, task.state == .running else { return }
            transfer.declineChallenge()
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            let method = challenge.protectionSpace.authenticationMethod
            let bySystem = [NSURLAuthenticationMethodServerTrust, NSURLAuthenticationMethodClientCertificate]
            completionHandler(
                bySystem.contains(method) ? .performDefaultHandling : .rejectProtectionSpace, nil)
        #endif
    }
}
