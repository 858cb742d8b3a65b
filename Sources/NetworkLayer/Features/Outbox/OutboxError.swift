import Foundation

/// Why an ``Outbox`` refused something, or why an item became a dead letter.
public enum OutboxError: Error, Sendable {
    /// Another outbox, in this process or another (an app extension), has the same directory and name.
    case inUse
    /// The outbox was closed.
    case closed
    /// The item could not be written (a full disk); nothing of it was stored. Carries the system's reason.
    case writeFailed(String)
    /// The outbox holds ``OutboxOptions/maximumItemCount`` items or ``OutboxOptions/maximumSize`` bytes.
    case full
    /// Only `POST`, `PUT`, `PATCH` and `DELETE` are stored.
    case unsupportedMethod(HTTPMethod)
    /// The body could not be encoded.
    case encodingFailed(any Error)
    /// No item has that identifier.
    case notFound
    /// The server rejected the item (another 4xx), or it could not be sent at all.
    case rejected(NetworkError)
    /// The item expired before it was delivered.
    case expired
    /// The item was made for another account than the layer's.
    case accountMismatch
    /// The request names no account (``OutboxRequest/Account/current``) and the layer is signed in as
    /// no one: neither its ``BearerTokenAuthenticator`` nor ``NetworkLayer/account`` names one. Nothing was
    /// stored. Name the account, or choose ``OutboxRequest/Account/any`` for a write anyone may send.
    case noAccount
    /// The request carries these credential headers (the layer's list, ``RedirectPolicy/credentialHeaders``
    /// included), which the outbox doesn't write to disk; nothing was stored. Add them at send time with an
    /// interceptor on the layer, or ``BearerTokenAuthenticator`` for a token.
    case credentialHeaders([String])

    /// A sentence for logs and screens.
    public var message: String {
        switch self {
        case .inUse: "Another outbox uses this directory and name."
        case .closed: "The outbox is closed."
        case .writeFailed(let reason): "The change could not be saved: \(reason)"
        case .full: "Too many changes are waiting to be sent."
        case .unsupportedMethod(let method): "\(method.rawValue) requests can't be queued."
        case .encodingFailed: "The change could not be prepared."
        case .notFound: "The change is no longer queued."
        case .rejected(let error): error.message
        case .expired: "The change expired before it could be sent."
        case .accountMismatch: "The change was made for another account."
        case .noAccount:
            "The change names no account and no one is signed in: pass `account:` with the user's ID, or "
                + "`account: .any` for a change that may go out as anyone."
        case .credentialHeaders(let names): CredentialHeaderNames.storageRefusal(names, by: "The outbox")
        }
    }
}
