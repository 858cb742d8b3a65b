import Foundation

/// Why a ``TransferStore`` refused something.
public enum TransferStoreError: Error, Sendable, Equatable {
    /// Another store, in this process or another (an app extension), has the directory.
    case inUse
    /// The transfer's record could not be written (a full disk); nothing was sent. Carries the reason.
    case writeFailed(String)
    /// The store keeps resumable uploads from a file and downloads to a file; carries why this request
    /// is neither.
    case unsupportedRequest(String)
    /// The store has no such transfer (it finished, or was removed).
    case notFound
    /// The transfer is running in this process.
    case alreadyRunning
    /// The request carries these credential headers (the layer's list, ``RedirectPolicy/credentialHeaders``
    /// included), which the store doesn't write to disk; nothing was recorded or sent. Add them at send
    /// time with an interceptor on the layer, or ``BearerTokenAuthenticator`` for a token.
    case credentialHeaders([String])
    /// The store was closed (``TransferStore/close()``); nothing was recorded or sent.
    case closed

    /// A sentence for logs and screens.
    public var message: String {
        switch self {
        case .inUse: "Another transfer store uses this directory."
        case .writeFailed(let reason): "The transfer could not be saved: \(reason)"
        case .unsupportedRequest(let reason): reason
        case .notFound: "The transfer is no longer stored."
        case .alreadyRunning: "The transfer is already running."
        case .closed: "The transfer store is closed."
        case .credentialHeaders(let names):
            CredentialHeaderNames.storageRefusal(names, by: "The transfer store")
        }
    }
}
