import Foundation

/// What one loopback server accepts before it refuses a request or closes a connection. The defaults are
/// tight, for a server only a browser on the same machine talks to; a test server may loosen every one.
package struct LoopbackLimits: Sendable {
    /// The longest request line (method, target, version), without its line end; longer gets 414.
    package var maxRequestLineBytes = 8 * 1024
    /// The most bytes of a request's head, request line and header fields together; more gets 431.
    package var maxHeadBytes = 32 * 1024
    /// The largest request body; larger gets 413.
    package var maxBodyBytes = 64 * 1024
    /// How long a kept-alive connection may wait for its next request before the server closes it;
    /// `nil`: as long as the peer likes.
    package var idleTimeout: TimeInterval? = 30
    /// How long a request may take to arrive, head and body, from its first byte: a slower one gets 408
    /// and its connection closes. `nil`: no limit.
    package var requestTimeout: TimeInterval? = 10
    /// The most connections served at once; one more is closed as soon as it is accepted. `nil`: no limit.
    package var maxConnections: Int? = 16
    /// The most bytes a streamed reply holds for a peer that reads slower than the server writes; a
    /// ``LoopbackStream/send(_:)`` that would go beyond is dropped.
    package var maxQueuedBytes = 1024 * 1024

    /// The tight defaults.
    package init() {}
}
