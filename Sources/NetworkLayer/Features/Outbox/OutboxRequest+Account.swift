extension OutboxRequest {
    /// Whom a write is for: it never goes out while the layer is signed in as someone else.
    ///
    /// ```swift
    /// OutboxRequest(.post, "messages", body: .json(draft), kind: "message.send", account: userID)
    /// OutboxRequest(.post, "messages", body: .json(draft), kind: "message.send")  // .current
    /// OutboxRequest(.post, "telemetry", body: .json(batch), kind: "telemetry", account: .any)
    /// ```
    ///
    /// Why a value rather than `String?`: `nil` used to mean "anyone", so a write enqueued while one user
    /// was signed in went out with the next user's token after a switch. Leaving `account:` out now means
    /// ``current``, the account signed in when the write is enqueued, and "anyone" is said out loud with
    /// ``any``, as `Locale.current` and `IPv4Address.any` read. A string literal names an account, so
    /// `account: "alice"` reads as before; `account: userID` (a `String` or `String?`) goes through the
    /// initializers of ``OutboxRequest`` that take one.
    public struct Account: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        private enum Choice: Hashable {
            case current
            case named(String)
            case any
        }

        private let choice: Choice

        private init(_ choice: Choice) {
            self.choice = choice
        }

        /// The account the layer is signed in as when the write is enqueued: its
        /// ``BearerTokenAuthenticator``'s ``BearerTokenAuthenticator/account``, else the layer's
        /// ``NetworkLayer/account``. When neither names one, ``Outbox/enqueue(_:)`` fails with
        /// ``OutboxError/noAccount``: a write made before sign-in has no owner to wait for.
        public static let current = Account(.current)

        /// Anyone: the write goes out as whoever is signed in when it is sent, or with no one. For writes
        /// that belong to the device, not a user (telemetry, a push token's registration).
        public static let any = Account(.any)

        /// The account with identifier `id` (a user ID, as the app names accounts to the layer).
        ///
        /// - Parameter id: The account's identifier.
        /// - Returns: The account.
        public static func named(_ id: String) -> Account {
            Account(.named(id))
        }

        /// The account named by a literal: `account: "alice"`.
        ///
        /// - Parameter value: The account's identifier.
        public init(stringLiteral value: String) {
            self.init(.named(value))
        }

        /// The account with identifier `id`, or ``current`` when it is `nil`: the choice that keeps a write
        /// from going out as someone else.
        ///
        /// - Parameter id: The account's identifier, or `nil`.
        public init(_ id: String?) {
            self.init(id.map(Choice.named) ?? .current)
        }

        /// The identifier of an account named with ``named(_:)`` or a literal; `nil` for ``current`` and
        /// ``any``.
        public var id: String? {
            if case .named(let id) = choice { id } else { nil }
        }

        /// `current`, `any`, or the identifier.
        public var description: String {
            switch choice {
            case .current: "current"
            case .any: "any"
            case .named(let id): id
            }
        }

        /// What an item stores: the account's identifier, or `nil` for any account; ``current`` read with
        /// `current`, `nil` when no one is signed in (then the write is refused).
        func resolved(current: () -> String?) -> Result<String?, OutboxError> {
            switch choice {
            case .named(let id): .success(id)
            case .any: .success(nil)
            case .current: current().map { .success($0) } ?? .failure(.noAccount)
            }
        }
    }
}
