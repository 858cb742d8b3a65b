import Foundation

/// How a ``LoopbackServer``'s handler answers one request: whole with ``reply(status:headers:body:)``, or as a
/// stream with ``open(status:headers:onClose:)``. The handler calls one of them, once, before it returns; the
/// first call wins and later ones are ignored. A handler that calls neither is answered with 500.
///
/// The server writes the framing fields (`Content-Length`, `Transfer-Encoding`, `Connection`) itself; ones
/// the handler passes are dropped. A field whose name is not an RFC 9110 token, or whose value holds a CR,
/// LF or NUL, would split the reply: the request is answered with 500 instead, and the field never written.
///
/// Invariant for `@unchecked Sendable`: `answer` is read and written only with `lock` held.
package final class LoopbackResponder: @unchecked Sendable {
    /// What the handler chose.
    enum Answer {
        case whole(status: Int, headers: [(name: String, value: String)], body: Data)
        case stream(status: Int, headers: [(name: String, value: String)], LoopbackStream)
    }

    private let lock = NSLock()
    private let queueCapacity: Int
    private var answer: Answer?

    init(queueCapacity: Int) {
        self.queueCapacity = queueCapacity
    }

    /// Answers with `status`, `headers` and all of `body`; the connection stays open for the next request
    /// unless the client asked to close it.
    ///
    /// - Parameters:
    ///   - status: The status code, e.g. 200.
    ///   - headers: The fields to send, in order, e.g. `Content-Type`.
    ///   - body: The body; not sent for a `HEAD` request or a status without one.
    package func reply(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        let chosen =
            Self.safe(headers) ? Answer.whole(status: status, headers: headers, body: body) : Self.refusal
        lock.withLock {
            if answer == nil { answer = chosen }
        }
    }

    /// Answers with `status` and `headers`, then a body written piece by piece as the returned stream is
    /// fed, until it finishes, the peer closes the connection, or the server stops. The body ends when the
    /// connection closes (no length, no chunks), which is how server-sent events are read.
    ///
    /// - Parameters:
    ///   - status: The status code, e.g. 200.
    ///   - headers: The fields to send, e.g. `Content-Type: text/event-stream`.
    ///   - onClose: Runs once when the connection ends, on the connection's thread.
    /// - Returns: The stream's writer; already closed when the handler had answered before or a field was
    ///   refused.
    package func open(
        status: Int = 200, headers: [(name: String, value: String)], onClose: (@Sendable () -> Void)? = nil
    ) -> LoopbackStream {
        let stream = LoopbackStream(capacity: queueCapacity, onClose: onClose)
        let safe = Self.safe(headers)
        let taken = lock.withLock {
            guard answer == nil else { return false }
            answer = safe ? .stream(status: status, headers: headers, stream) : Self.refusal
            return safe
        }
        if !taken { stream.markClosed() }
        return stream
    }

    /// Whether every field can be written as given, without ending its line early.
    private static func safe(_ headers: [(name: String, value: String)]) -> Bool {
        headers.allSatisfy { FieldSyntax.isToken($0.name.utf8) && FieldSyntax.isSafeValue($0.value) }
    }

    /// The answer in place of a reply with a field that would split it.
    private static let refusal = Answer.whole(
        status: 500, headers: [("Content-Type", "text/plain; charset=utf-8")],
        body: Data("invalid header field in reply\n".utf8))

    /// What the handler chose; `nil` when it chose nothing.
    var chosen: Answer? { lock.withLock { answer } }
}
