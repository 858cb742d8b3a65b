import Foundation

extension HARArchive {
    /// A response as received: `response`.
    public struct Response: Sendable, Equatable {
        /// The status code; browsers write `0` for a request that got no response.
        public var status: Int
        /// The reason phrase, e.g. `"OK"`; may be empty (HTTP/2 has none).
        public var statusText: String
        /// The protocol, e.g. `"HTTP/1.1"`.
        public var httpVersion: String
        /// The header fields in the order received.
        public var headers: [Header]
        /// The body.
        public var content: Content

        /// A response.
        ///
        /// - Parameters:
        ///   - status: The status code, such as 200.
        ///   - statusText: The reason phrase, such as `OK`.
        ///   - httpVersion: The protocol version, such as `HTTP/1.1`.
        ///   - headers: The header fields, in order.
        ///   - content: The body.
        public init(
            status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1", headers: [Header] = [],
            content: Content = Content(data: Data(), mimeType: "")
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.headers = headers
            self.content = content
        }

        /// The value of the first header field called `name`, compared without regard to case.
        ///
        /// - Parameter name: The header's name, in any case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// A response's body: `content`. Its ``text`` is the body as the application saw it, after any
    /// `Content-Encoding` such as gzip was removed.
    public struct Content: Sendable, Equatable {
        /// The body's length in bytes, decoded.
        public var size: Int
        /// The body's media type, e.g. `"application/json; charset=utf-8"`.
        public var mimeType: String
        /// The body: its text, or base64 when ``encoding`` is `"base64"`; `nil` when the exporter left
        /// it out.
        public var text: String?
        /// `"base64"` for a binary body; `nil` for text.
        public var encoding: String?

        /// The body `data` of type `mimeType`: as text when the type is textual and the bytes are UTF-8,
        /// as base64 otherwise.
        ///
        /// - Parameters:
        ///   - data: The body's bytes; text is kept as text, anything else as base64.
        ///   - mimeType: The body's media type, such as `application/json`.
        public init(data: Data, mimeType: String) {
            size = data.count
            self.mimeType = mimeType
            let written = HARCoding.text(of: data, mimeType: mimeType)
            text = data.isEmpty ? nil : written.text
            encoding = data.isEmpty ? nil : written.encoding
        }

        /// The body's bytes; empty when the archive has no text for it.
        public var data: Data {
            text.map { HARCoding.body(text: $0, encoding: encoding) } ?? Data()
        }
    }
}

extension HARArchive.Response: Codable {
    private enum Keys: String, CodingKey {
        case status, statusText, httpVersion, headers, content, cookies, redirectURL, headersSize, bodySize
    }

    /// Reads a response; only `status` is required.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        self.init(
            status: try fields.decode(Int.self, forKey: .status),
            statusText: fields.lenient(.statusText, default: ""),
            httpVersion: fields.lenient(.httpVersion, default: ""),
            headers: fields.lenient(.headers, default: []),
            content: fields.lenient(.content, default: HARArchive.Content(data: Data(), mimeType: "")))
    }

    /// Writes every field HAR 1.2 requires: no `cookies` (a `Set-Cookie` header's value is all there
    /// is), `redirectURL` from the `Location` header, `headersSize` unknown (`-1`).
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(status, forKey: .status)
        try fields.encode(statusText, forKey: .statusText)
        try fields.encode(httpVersion, forKey: .httpVersion)
        try fields.encode([HARArchive.Header](), forKey: .cookies)
        try fields.encode(headers, forKey: .headers)
        try fields.encode(content, forKey: .content)
        try fields.encode(header("Location") ?? "", forKey: .redirectURL)
        try fields.encode(-1, forKey: .headersSize)
        try fields.encode(content.size, forKey: .bodySize)
    }
}

extension HARArchive.Content: Codable {
    private enum Keys: String, CodingKey {
        case size, mimeType, text, encoding
    }

    /// Reads a body; every field may be missing.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        mimeType = fields.lenient(.mimeType, default: "")
        text = fields.lenient(.text)
        encoding = fields.lenient(.encoding)
        size = fields.lenientNumber(.size).flatMap { Int(exactly: $0.rounded()) } ?? 0
    }

    /// Writes `size`, `mimeType`, and `text` and `encoding` when there is a body.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(size, forKey: .size)
        try fields.encode(mimeType, forKey: .mimeType)
        try fields.encodeIfPresent(text, forKey: .text)
        try fields.encodeIfPresent(encoding, forKey: .encoding)
    }
}
