import Foundation
import LoopbackHTTP

/// A scripted reply of the ``MockServer``: status, headers, body (in memory or streamed),
/// how the body is encoded and framed, and optional delays, throttling and faults.
///
/// The server owns the framing: `Content-Length`, `Transfer-Encoding` and `Connection`
/// fields in `headers` are replaced by the ones the server computes (a `Connection: close`
/// field is honoured: the server closes the connection after the reply). No body is ever
/// sent with 1xx, 204 or 304, nor to a HEAD request; a HEAD reply carries the
/// `Content-Length` the GET reply would have.
public struct MockResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The full body when it is held in memory (for a range request the server sends a slice
    /// of it). Empty when ``content`` is a stream; setting it makes ``content`` these bytes.
    public var body: Data {
        get {
            guard case .data(let data) = content else { return Data() }
            return data
        }
        set { content = .data(newValue) }
    }
    /// Where the body comes from: bytes in memory (what ``body`` holds) or a stream.
    public var content: Body
    /// How the body is encoded on the wire: `.identity` (the default) or `.gzip`.
    public var contentEncoding: ContentEncoding
    /// When set, the body is sent with `Transfer-Encoding: chunked` in chunks of at most this
    /// many bytes; when `nil` (the default) it is sent with a `Content-Length`, except a
    /// stream of unknown length or a gzip-encoded stream, which is sent one chunk per piece.
    public var chunkSize: Int?
    /// Whether the server answers `Range: bytes=…` requests for this 200 reply with 206 and
    /// a slice of the body (or 416 when the range lies outside it), and advertises
    /// `Accept-Ranges: bytes`. Multi-range requests get the full 200 reply. With gzip the
    /// range applies to the compressed bytes, as RFC 9110 says. Ignored for a streamed body.
    public var supportsRanges: Bool
    /// Seconds to wait after reading the request before sending the headers.
    public var delayBeforeHeaders: TimeInterval
    /// Seconds to wait after the headers before sending the body.
    public var delayBeforeBody: TimeInterval
    /// When set, the body is written at most `bytes` at a time with `period` between writes
    /// (streamed bodies too: e.g. 1 MB every 0.01 s for about 100 MB/s).
    public var throttle: Throttle?
    /// When set, the server misbehaves in this way instead of (or while) answering.
    public var fault: Fault?

    /// Body throttling: at most `bytes` per write, `period` seconds between writes.
    public struct Throttle: Sendable, Equatable {
        /// The most bytes written at once (at least 1 is used).
        public var bytes: Int
        /// Seconds between two writes.
        public var period: TimeInterval

        /// A throttle writing `bytes` every `period` seconds.
        ///
        /// - Parameters:
        ///   - bytes: The most bytes written at once.
        ///   - period: Seconds between two writes.
        public init(bytes: Int, period: TimeInterval) {
            self.bytes = bytes
            self.period = period
        }
    }

    /// A reply with `status`, header fields from `headers` (sent sorted by name) and `body`.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields, sent sorted by name; the server sets the framing fields itself.
    ///   - body: The body, held in memory.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        content = .data(body)
        contentEncoding = .identity
        chunkSize = nil
        supportsRanges = false
        delayBeforeHeaders = 0
        delayBeforeBody = 0
        throttle = nil
        fault = nil
    }

    /// A reply with `status`, header fields from `headers` (sent sorted by name) and `content`,
    /// e.g. `MockResponse(content: .repeating(0, count: nil))` for an endless body of zeros.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields, sent sorted by name; the server sets the framing fields itself.
    ///   - content: Where the body comes from: bytes in memory or a stream.
    public init(status: Int = 200, headers: [String: String] = [:], content: Body) {
        self.init(status: status, headers: headers)
        self.content = content
    }

    /// A reply whose body is `text` in UTF-8, with `Content-Type: text/plain; charset=utf-8`
    /// unless `headers` names another.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields, sent sorted by name.
    ///   - text: The body.
    public init(status: Int = 200, headers: [String: String] = [:], text: String) {
        var fields = headers
        if !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
            fields["Content-Type"] = "text/plain; charset=utf-8"
        }
        self.init(status: status, headers: fields, body: Data(text.utf8))
    }

    /// A reply whose body is `value` encoded as JSON, with `Content-Type: application/json`
    /// unless `headers` names another (in any case, e.g. `content-type: application/problem+json`):
    /// then that one is sent, alone. Throws what the encoder throws.
    ///
    /// - Parameters:
    ///   - value: The body, encoded with `encoder`.
    ///   - status: The status code.
    ///   - headers: Header fields, sent sorted by name.
    ///   - encoder: Encodes `value`.
    /// - Returns: The reply.
    public static func json(
        _ value: some Encodable, status: Int = 200, headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        var fields = headers
        if !fields.keys.contains(where: { $0.lowercased() == "content-type" }) {
            fields["Content-Type"] = "application/json"
        }
        return MockResponse(status: status, headers: fields, body: try encoder.encode(value))
    }

    /// A `429 Too Many Requests` asking for a pause of `seconds`: the layer then holds every request to
    /// this server's origin that long (see `RequestScheduling`).
    ///
    /// - Parameter seconds: The `Retry-After` value, in seconds.
    /// - Returns: The reply, with an empty body.
    public static func tooManyRequests(retryAfter seconds: Int) -> MockResponse {
        MockResponse(status: 429, headers: ["Retry-After": String(seconds)])
    }

    /// A reply whose body is `raw`, JSON text sent as is, with `Content-Type: application/json`.
    /// (Labelled because `String` is `Encodable` too: `.json("a")` sends the JSON string `"a"`.)
    ///
    /// - Parameters:
    ///   - raw: The body, JSON text sent byte for byte.
    ///   - status: The status code.
    /// - Returns: The reply.
    public static func json(raw: String, status: Int = 200) -> MockResponse {
        MockResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(raw.utf8))
    }

    /// A reply whose body is the contents of a file, such as a JSON fixture in the test bundle
    /// (`Bundle.module.url(forResource: "todos", withExtension: "json")`). A `.json` file is sent with
    /// `Content-Type: application/json` unless `headers` names a type. Throws what reading the file
    /// throws, so a missing fixture fails the test where it is named.
    ///
    /// - Parameters:
    ///   - url: The file, read now.
    ///   - status: The status code.
    ///   - headers: Header fields, sent sorted by name.
    /// - Returns: The reply.
    public static func file(_ url: URL, status: Int = 200, headers: [String: String] = [:]) throws
        -> MockResponse
    {
        var fields = headers
        if url.pathExtension.lowercased() == "json",
            !fields.keys.contains(where: { $0.lowercased() == "content-type" })
        {
            fields["Content-Type"] = "application/json"
        }
        return MockResponse(status: status, headers: fields, body: try Data(contentsOf: url))
    }

    /// The value of the header field `name`, compared case-insensitively.
    ///
    /// - Parameter name: The field's name, in any case.
    /// - Returns: The first such field's value, or `nil`.
    public func header(_ name: String) -> String? {
        HeaderLookup.value(of: name, in: headers)
    }

    /// This reply with one more header field.
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: The field's value.
    /// - Returns: A copy with the field added last.
    public func addingHeader(_ name: String, _ value: String) -> MockResponse {
        var copy = self
        copy.headers.append((name: name, value: value))
        return copy
    }

    /// This reply sent with `Transfer-Encoding: chunked`, `size` bytes per chunk.
    ///
    /// - Parameter size: The most bytes in one chunk.
    /// - Returns: A copy sent chunked.
    public func chunked(size: Int = 1024) -> MockResponse {
        var copy = self
        copy.chunkSize = size
        return copy
    }

    /// This reply with its body gzip-encoded on the fly (see ``ContentEncoding/gzip``).
    public func gzipped() -> MockResponse {
        var copy = self
        copy.contentEncoding = .gzip
        return copy
    }

    /// This reply answering byte-range requests (see ``supportsRanges``).
    public func supportingRanges() -> MockResponse {
        var copy = self
        copy.supportsRanges = true
        return copy
    }

    /// This reply sent after waiting `beforeHeaders` seconds, with `beforeBody` seconds
    /// between headers and body. `MockServer.stop()` interrupts the waits.
    ///
    /// - Parameters:
    ///   - beforeHeaders: Seconds between reading the request and sending the headers.
    ///   - beforeBody: Seconds between the headers and the body.
    /// - Returns: A copy with these delays.
    public func delayed(beforeHeaders: TimeInterval = 0, beforeBody: TimeInterval = 0) -> MockResponse {
        var copy = self
        copy.delayBeforeHeaders = beforeHeaders
        copy.delayBeforeBody = beforeBody
        return copy
    }

    /// This reply with its body written `bytes` at a time, `period` seconds apart.
    ///
    /// - Parameters:
    ///   - bytes: The most bytes written at once.
    ///   - period: Seconds between two writes.
    /// - Returns: A copy with this throttle.
    public func throttled(bytes: Int, every period: TimeInterval) -> MockResponse {
        var copy = self
        copy.throttle = Throttle(bytes: bytes, period: period)
        return copy
    }

    /// This reply with `fault` injected (see ``Fault``).
    ///
    /// - Parameter fault: How the server misbehaves.
    /// - Returns: A copy with the fault.
    public func withFault(_ fault: Fault) -> MockResponse {
        var copy = self
        copy.fault = fault
        return copy
    }
}
