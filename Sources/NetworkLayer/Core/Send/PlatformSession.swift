import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one boundary between the layer and its URLSession: every workaround FoundationNetworking needs
/// and Apple's URLSession doesn't, so Apple platforms keep the native behaviour wherever it is correct.
/// The table of differences is in <doc:LinuxNotes>. On both, a challenge never sends stored credentials
/// and a 401 or 407 is the reply. Why Apple uploads avoid the body stream: CFNetwork doesn't support
/// `InputStream` subclasses as body streams.
enum PlatformSession {
    #if canImport(FoundationNetworking)
        static let losesRedirectedBodies = true
        static let leavesStoppedTasksUnanswered = true
        static let sendsUploadsNatively = false
        /// Why: FoundationNetworking's `setValue` rebuilds every header per field, so the layer writes them in
        /// one go (`URLRequest.setHeaderFields(_:)`) under the names `setValue` would store.
        static func storedHeaderName(_ name: String) -> String { name.capitalized }
    #else
        static let losesRedirectedBodies = false
        static let leavesStoppedTasksUnanswered = false
        static let sendsUploadsNatively = true
        static func storedHeaderName(_ name: String) -> String { name }
    #endif

    /// Why the layer can't run on `configuration`, or `nil` when it can.
    static func unsupported(_ configuration: URLSessionConfiguration) -> String? {
        guard configuration.identifier == nil else {
            return "A background session configuration (\(configuration.identifier ?? "")) can't run the "
                + "layer's data tasks and streamed uploads; pass a default or ephemeral configuration."
        }
        return nil
    }

    static func adapt(_ configuration: URLSessionConfiguration) {
        configuration.urlCache = nil
        #if !canImport(FoundationNetworking)
            configuration.waitsForConnectivity = false
            // Stored credentials never answer a challenge: the 401 is the reply, as on Linux.
            configuration.urlCredentialStorage = nil
        #endif
    }

    /// Whether the layer sends every request's cookies and stores every reply's (``SessionCookies``): on
    /// Linux, where FoundationNetworking's handling is switched off (it parses every header line); on Apple
    /// platforms URLSession does, but for an attempt whose cookie the layer pinned.
    #if canImport(FoundationNetworking)
        static let layerHandlesCookies = true
    #else
        static let layerHandlesCookies = false
    #endif

    /// Switches the session's own cookie handling off where the layer handles cookies: it neither parses
    /// replies for cookies (`httpCookieAcceptPolicy` `.never`) nor adds the storage's cookies when a task
    /// is created (`httpShouldSetCookies`), so the cookie an attempt was keyed by is the one it carries.
    static func handOverCookies(of configuration: URLSessionConfiguration) {
        #if canImport(FoundationNetworking)
            guard configuration.httpCookieStorage != nil else { return }
            configuration.httpCookieAcceptPolicy = .never
            configuration.httpShouldSetCookies = false
        #endif
    }

    /// Whether the session adds the storage's cookies to `request`: FoundationNetworking always does,
    /// replacing the request's own `Cookie` field; URLSession unless the request declines them
    /// (`httpShouldHandleCookies`) or has its own `Cookie` field, which then overrides the storage's.
    static func addsStoredCookies(to request: URLRequest) -> Bool {
        #if canImport(FoundationNetworking)
            return true
        #else
            return request.httpShouldHandleCookies && request.value(forHTTPHeaderField: "Cookie") == nil
        #endif
    }

    static func answer(
        _ challenge: URLAuthenticationChallenge, for transfer: Transfer?, task: URLSessionTask,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // Only HTTP authentication reaches here on Linux (libcurl checks certificates itself).
            guard let transfer, !transfer.lifecycle.isStopped, task.state == .running else { return }
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
}
