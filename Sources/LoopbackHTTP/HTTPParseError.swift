/// Why a request could not be read.
package enum HTTPParseError: Error, Equatable {
    /// The peer closed the connection, or the server stopped, in the middle of a request.
    case connectionClosed
    /// The bytes are not a valid HTTP/1.1 request: answer 400 and close.
    case malformed(String)
    /// The request line is longer than ``LoopbackLimits/maxRequestLineBytes``: answer 414 and close.
    case requestLineTooLong
    /// The head is longer than ``LoopbackLimits/maxHeadBytes``: answer 431 and close.
    case headTooLarge
    /// The body is larger than the server accepts: answer 413 and close.
    case bodyTooLarge
    /// The request did not arrive within ``LoopbackLimits/requestTimeout``: answer 408 and close.
    case timedOut

    /// The status to answer with, or `nil` when nobody is left to answer.
    package var status: Int? {
        switch self {
        case .connectionClosed: return nil
        case .malformed: return 400
        case .requestLineTooLong: return 414
        case .headTooLarge: return 431
        case .bodyTooLarge: return 413
        case .timedOut: return 408
        }
    }
}

/// How a request's body is delimited.
package enum BodyFraming: Equatable, Sendable {
    case empty
    case length(Int)
    case chunked
}
