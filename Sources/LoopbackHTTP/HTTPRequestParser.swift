import Foundation

/// Reads HTTP/1.1 requests, one after another, from a stream of bytes.
///
/// `receive` hands out the next bytes of the stream, waiting no later than the deadline it is given
/// (`nil`: no limit). Nothing here trusts the input: every malformed or oversized piece, and every
/// request slower than ``LoopbackLimits/requestTimeout``, becomes an `HTTPParseError`. A connection idle
/// for ``LoopbackLimits/idleTimeout`` between requests ends as if the peer had closed it.
package struct HTTPRequestParser {
    /// What the peer may send.
    package let limits: LoopbackLimits
    private let receive: (Date?) -> Received
    private var buffer: [UInt8] = []
    private var position = 0
    /// When the request being read must have arrived; `nil` between requests, or without a limit.
    private var requestDeadline: Date?
    /// Whether a byte of the request being read has arrived.
    private var requestStarted = false
    /// When a connection waiting for its next request is closed; `nil`: never.
    private var idleDeadline: Date?

    package init(limits: LoopbackLimits, receive: @escaping (_ deadline: Date?) -> Received) {
        self.limits = limits
        self.receive = receive
    }

    /// Whether bytes of a next request (pipelined behind the last) are already read and waiting.
    package var hasUnreadBytes: Bool { position < buffer.count }

    /// The next request's head, or `nil` when the stream ends cleanly (or idles out) between requests.
    package mutating func readHead() throws(HTTPParseError) -> RequestHead? {
        buffer.removeSubrange(0..<position)
        position = 0
        requestStarted = false
        idleDeadline = limits.idleTimeout.map { Date(timeIntervalSinceNow: $0) }
        if !buffer.isEmpty { startRequest() }
        var budget = limits.maxHeadBytes
        var line: ArraySlice<UInt8> = []
        var start = position
        repeat {  // RFC 9112 §2.2: ignore empty lines before the request line.
            start = position
            // The request line's own limit, line end included; the head's limit counts it too.
            var lineBudget = limits.maxRequestLineBytes + 2
            guard
                let next = try readLine(
                    budget: &lineBudget, overflow: .requestLineTooLong, endOfStreamAllowed: true)
            else { return nil }
            guard next.count <= limits.maxRequestLineBytes else { throw .requestLineTooLong }
            budget -= position - start
            guard budget >= 0 else { throw .headTooLarge }
            line = next
        } while line.isEmpty
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = Self.token(parts[0]), !parts[1].isEmpty,
            !parts[1].contains(where: Self.isControl)
        else { throw .malformed("bad request line") }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw .malformed("unsupported version")
        }
        // Origin form ("/path") or absolute form only: anything else ("*", "evil") is routed nowhere.
        guard parts[1].first == UInt8(ascii: "/") || RequestTarget.isAbsoluteForm(parts[1]) else {
            throw .malformed("bad request target")
        }
        var head = RequestHead(
            method: method, target: String(decoding: parts[1], as: UTF8.self), version: version, headers: [])
        while let field = try readLine(budget: &budget, overflow: .headTooLarge, endOfStreamAllowed: false),
            !field.isEmpty
        {
            head.headers.append(try Self.headerField(field))
        }
        head.raw = Array(buffer[start..<position])
        return head
    }

    /// How the body of the request with `head` is delimited; with `limited`, a longer body than the server
    /// accepts is an error.
    package func framing(of head: RequestHead, limited: Bool = true) throws(HTTPParseError) -> BodyFraming {
        let length = head.header("Content-Length")
        if let encoding = head.header("Transfer-Encoding") {
            guard length == nil else { throw .malformed("both Content-Length and Transfer-Encoding") }
            guard encoding.lowercased() == "chunked" else { throw .malformed("unsupported transfer coding") }
            return .chunked
        }
        guard let length else { return .empty }
        // Repeated fields arrive joined ("5, 5"); they must agree.
        let values = Set(length.split(separator: ",").map { $0.trimmingSpaces() })
        guard values.count == 1, let value = values.first, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(value)
        else { throw .malformed("bad Content-Length") }
        guard count <= limits.maxBodyBytes || !limited else { throw .bodyTooLarge }
        return count == 0 ? .empty : .length(count)
    }

    /// Reads a body delimited as `framing` says: its bytes (none unless `keeping`) and its length.
    package mutating func readBody(_ framing: BodyFraming, keeping: Bool = true) throws(HTTPParseError) -> (
        [UInt8], Int
    ) {
        switch framing {
        case .empty:
            return ([], 0)
        case .length(let count) where keeping:
            return (Array(try readExactly(count)), count)
        case .length(let count):
            try discardExactly(count)
            return ([], count)
        case .chunked:
            return try readChunkedBody(keeping: keeping)
        }
    }

    /// Hands the body's bytes to `deliver` as they arrive, holding no more than one receive's worth, and
    /// stops after `limit` bytes, leaving the rest unread. `true` when the body ended, `false` at the limit.
    /// Any length is accepted: the bytes are not kept here.
    package mutating func streamBody(
        _ framing: BodyFraming, limit: Int, deliver: (ArraySlice<UInt8>) -> Void
    ) throws(HTTPParseError) -> Bool {
        var left = limit
        switch framing {
        case .empty:
            return true
        case .length(let count):
            return try pass(count, budget: &left, to: deliver)
        case .chunked:
            var unlimited = Int.max  // Each piece is passed on and dropped: nothing accumulates.
            return try readChunks(lineBudget: &unlimited) { parser, size throws(HTTPParseError) in
                try parser.pass(size, budget: &left, to: deliver)
            }
        }
    }

    /// The longest chunk-size line (with extensions) accepted.
    package static let maxChunkLineBytes = 8 * 1024

    private mutating func readChunkedBody(keeping: Bool) throws(HTTPParseError) -> ([UInt8], Int) {
        var body: [UInt8] = []
        var length = 0
        // The buffer keeps every chunk line until the request ends: they count against its size too.
        var lineBudget = limits.maxBodyBytes + limits.maxHeadBytes
        _ = try readChunks(lineBudget: &lineBudget) { parser, size throws(HTTPParseError) in
            guard size <= parser.limits.maxBodyBytes - length else { throw .bodyTooLarge }
            if keeping {
                body += try parser.readExactly(size)
            } else {
                try parser.discardExactly(size)
            }
            length += size
            return true
        }
        return (body, length)
    }

    /// Reads a chunked body, handing each chunk's size to `readData`, which reads the chunk's bytes; stops
    /// early, `false`, when it does. Each chunk-size line has its own small budget, and all of them
    /// together `lineBudget` (beyond it: 413); the trailers share one as a header section does.
    private mutating func readChunks(
        lineBudget: inout Int, _ readData: (inout Self, Int) throws(HTTPParseError) -> Bool
    ) throws(HTTPParseError) -> Bool {
        while true {
            var budget = Self.maxChunkLineBytes
            let lineStart = position
            guard
                let line = try readLine(
                    budget: &budget, overflow: Self.longChunkLine, endOfStreamAllowed: false)
            else {
                throw .connectionClosed
            }
            lineBudget -= position - lineStart
            guard lineBudget >= 0 else { throw .bodyTooLarge }
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                .trimmingSpaces()
            guard (1...16).contains(sizeText.count), sizeText.allSatisfy(\.isHexDigit),
                let size = Int(sizeText, radix: 16)
            else { throw .malformed("bad chunk size") }
            if size == 0 { break }
            guard try readData(&self, size) else { return false }
            budget = Self.maxChunkLineBytes
            guard
                try readLine(budget: &budget, overflow: Self.longChunkLine, endOfStreamAllowed: false)?
                    .isEmpty == true
            else {
                throw .malformed("chunk data longer than its size")
            }
        }
        var budget = limits.maxHeadBytes
        while let trailer = try readLine(budget: &budget, overflow: .headTooLarge, endOfStreamAllowed: false),
            !trailer.isEmpty
        {
            _ = try Self.headerField(trailer)
        }
        return true
    }

    /// A chunk-size line longer than ``maxChunkLineBytes``.
    private static let longChunkLine = HTTPParseError.malformed("header section too large")

    /// The next line without its CRLF (a bare LF is accepted too), `overflow` thrown when it goes beyond
    /// `budget`; `nil` only when the stream ends before any byte of it and `endOfStreamAllowed` is set.
    private mutating func readLine(
        budget: inout Int, overflow: HTTPParseError, endOfStreamAllowed: Bool
    ) throws(HTTPParseError) -> ArraySlice<UInt8>? {
        var searchFrom = position
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                budget -= newline + 1 - position
                guard budget >= 0 else { throw overflow }
                var line = buffer[position..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                position = newline + 1
                return line
            }
            guard buffer.count - position <= budget else { throw overflow }
            searchFrom = buffer.count
            guard try fill() else {
                if endOfStreamAllowed && position == buffer.count { return nil }
                throw .connectionClosed
            }
        }
    }

    /// Appends the peer's next bytes to the buffer; `false` at the end of the stream, or when the
    /// connection idled out between requests. Throws ``HTTPParseError/timedOut`` when a request is slower
    /// than its limit.
    private mutating func fill() throws(HTTPParseError) -> Bool {
        switch receive(requestStarted ? requestDeadline : idleDeadline) {
        case .bytes(let more):
            if !requestStarted { startRequest() }
            buffer += more
            return true
        case .closed:
            return false
        case .timedOut:
            if requestStarted { throw .timedOut }
            return false
        }
    }

    /// The first byte of a request arrived: its time limit starts.
    private mutating func startRequest() {
        requestStarted = true
        requestDeadline = limits.requestTimeout.map { Date(timeIntervalSinceNow: $0) }
    }

    private mutating func readExactly(_ count: Int) throws(HTTPParseError) -> ArraySlice<UInt8> {
        while buffer.count - position < count {
            guard try fill() else { throw .connectionClosed }
        }
        defer { position += count }
        return buffer[position..<position + count]
    }

    /// Reads and drops `count` bytes, holding no more than one receive's worth at a time.
    private mutating func discardExactly(_ count: Int) throws(HTTPParseError) {
        var unlimited = Int.max
        _ = try pass(count, budget: &unlimited) { _ in }
    }

    /// Hands the next `count` bytes to `deliver` as they arrive, holding no more than one receive's worth,
    /// but no more than `budget` of them (`budget` is decreased); `false` when the budget ran out first.
    private mutating func pass(
        _ count: Int, budget: inout Int, to deliver: (ArraySlice<UInt8>) -> Void
    ) throws(HTTPParseError) -> Bool {
        let passing = min(count, budget)
        var left = passing
        while true {
            let taken = min(buffer.count - position, left)
            if taken > 0 { deliver(buffer[position..<position + taken]) }
            position += taken
            left -= taken
            if left == 0 { break }
            buffer.removeAll(keepingCapacity: true)
            position = 0
            guard try fill() else { throw .connectionClosed }
        }
        budget -= passing
        return passing == count
    }

    private static func headerField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]) else {
            throw .malformed("bad header line")
        }
        let value = line[(colon + 1)...]
        guard !value.contains(where: { isControl($0) && $0 != UInt8(ascii: "\t") }) else {
            throw .malformed("control character in header value")
        }
        return (name, String(decoding: value, as: UTF8.self).trimmingSpaces())
    }

    /// `bytes` as a string if they form an RFC 9110 token (method, field name).
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        FieldSyntax.isToken(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    private static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }
}
