import Foundation

/// Where one request's body goes as it arrives, instead of into the server's memory: what a
/// ``MockServer/bodyHandler`` returns for a request it takes.
///
/// ```swift
/// server.bodyHandler = { request in
///     guard request.method == "PUT", let handle = FileHandle(forWritingAtPath: path) else { return nil }
///     return MockBodyReceiver(
///         receive: { handle.write($0) },
///         finish: { ending in
///             try? handle.close()
///             return MockResponse(status: ending == .complete ? 201 : 500)
///         })
/// }
/// ```
///
/// The server hands ``receive`` each piece of the body as it comes off the socket (at most 64 KiB, after
/// chunked transfer coding is removed), so a 1 GiB upload needs no more memory than one piece, then calls
/// ``finish`` once, saying how the body ended. With ``cutsAfterBytes`` set, the server stops reading after
/// exactly that many bytes of the body and closes the connection without a reply: a connection lost in the
/// middle of an upload, as the client sees it. Both closures run on the connection's thread, one call at a time.
public struct MockBodyReceiver {
    /// How a request's body ended.
    public enum Ending: Sendable, Equatable {
        /// Every byte arrived; the reply ``finish`` returns is sent.
        case complete
        /// The connection closed (or the server stopped) before the body's end.
        case dropped
        /// The server closed the connection after ``cutsAfterBytes`` bytes, as asked.
        case cut
    }

    /// After how many bytes of the body the server closes the connection without a reply, `nil` for never.
    /// A cut at the body's length loses only the reply; one beyond it does nothing.
    public var cutsAfterBytes: Int?
    /// Takes the body's next piece.
    public var receive: (Data) -> Void
    /// Told how the body ended; returns the reply, which is sent only after ``Ending/complete``.
    public var finish: (Ending) -> MockResponse
    /// A reply sent at once, before any of the body is read; the connection then closes.
    let immediateReply: MockResponse?

    /// A receiver handed the body piece by piece.
    ///
    /// - Parameters:
    ///   - cutsAfterBytes: After how many bytes of the body the server closes the connection; `nil` for never.
    ///   - receive: Takes each piece of the body, in order.
    ///   - finish: Told how the body ended; returns the reply, sent only when the body is complete.
    public init(
        cutsAfterBytes: Int? = nil, receive: @escaping (Data) -> Void,
        finish: @escaping (Ending) -> MockResponse
    ) {
        self.cutsAfterBytes = cutsAfterBytes.map { max(0, $0) }
        self.receive = receive
        self.finish = finish
        immediateReply = nil
    }

    /// Answers `response` before reading the body, then closes the connection, as a server does when a
    /// request's head is enough to refuse it (a wrong offset, a missing upload); ``finish`` is not called.
    ///
    /// - Parameter response: The reply.
    /// - Returns: A receiver that reads nothing.
    public static func reply(_ response: MockResponse) -> MockBodyReceiver {
        MockBodyReceiver(immediateReply: response)
    }

    private init(immediateReply: MockResponse) {
        cutsAfterBytes = nil
        receive = { _ in }
        finish = { _ in immediateReply }
        self.immediateReply = immediateReply
    }
}
