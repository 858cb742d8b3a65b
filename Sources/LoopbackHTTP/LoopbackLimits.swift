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
    /// How long a connection may wait for its first request, or a kept-alive one for its next, before the
    /// server closes it; `nil`: as long as the peer likes. Long enough for a browser that reuses a
    /// connection after a pause; a client that finds it closed opens another, as HTTP/1.1 clients must.
    package var idleTimeout: TimeInterval? = 30
    /// How long a request may take to arrive, head and body, from its first byte: a slower one gets 408
    /// and its connection closes. `nil`: no limit.
    package var requestTimeout: TimeInterval? = 10
    /// How long a reply, whole or streamed, may hold bytes the peer takes none of before the server closes
    /// the connection and frees its place; `nil`: as long as the peer likes. A stream with nothing to send
    /// (a quiet tab) is not timed: only one its peer stopped reading.
    package var sendTimeout: TimeInterval? = 30
    /// The most connections served at once; `nil`: no limit. One more takes the place of the connection idle
    /// the longest (waiting for a request, none of whose bytes has come), which is closed; when none is idle,
    /// the newcomer is closed as soon as it is accepted.
    package var maxConnections: Int? = 16
    /// The most bytes a streamed reply holds for a peer that reads slower than the server writes; a
    /// ``LoopbackStream/send(_:)`` that would go beyond is dropped.
    package var maxQueuedBytes = 1024 * 1024

    /// The tight defaults.
    package init() {}
}
