import Foundation

extension HARArchive {
    /// A request as sent: `request`.
    public struct Request: Sendable, Equatable {
        /// The method, e.g. `"GET"`.
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// The protocol, e.g. `"HTTP/1.1"`; browsers also write `"h2"` or `"http/2.0"`.
        public var httpVersion: String
        /// The header fields in the order sent; HTTP/2 pseudo-headers (`:path`) included when the exporter
        /// wrote them.
        public var headers: [Header]
        /// The body; `nil` when the request had none.
        public var postData: PostData?

        /// A request.
        ///
        /// - Parameters:
        ///   - method: The HTTP method, such as `GET`.
        ///   - url: The full URL, query included.
        ///   - httpVersion: The protocol version, such as `HTTP/1.1`.
        ///   - headers: The header fields, in order.
        ///   - postData: The body, if there is one.
        public init(
            method: String, url: String, httpVersion: String = "HTTP/1.1", headers: [Header] = [],
            postData: PostData? = nil
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.headers = headers
            self.postData = postData
        }

        /// The query's items, names and values percent-decoded, as `queryString` lists them.
        public var queryString: [Header] {
            ReplayQuery.items(ofURL: url).map { Header(name: $0.name, value: $0.value ?? "") }
        }
    }

    /// A request's body: `postData`.
    public struct PostData: Sendable, Equatable {
        /// The body's media type, e.g. `"application/json"`.
        public var mimeType: String
        /// The body: its text, or base64 when ``encoding`` is `"base64"`.
        public var text: String
        /// `"base64"` for a binary body (an extension of HAR 1.2, which has no binary request bodies);
        /// `nil` for text.
        public var encoding: String?

        /// The body `data` of type `mimeType`: as text when the type is textual and the bytes are UTF-8,
        /// as base64 otherwise.
        ///
        /// - Parameters:
        ///   - data: The body's bytes; text is kept as text, anything else as base64.
        ///   - mimeType: The body's media type, such as `application/json`.
        public init(data: Data, mimeType: String) {
            self.mimeType = mimeType
            (text, encoding) = HARCoding.text(of: data, mimeType: mimeType)
        }

        /// The body's bytes.
        public var data: Data {
            HARCoding.body(text: text, encoding: encoding)
        }
    }

    /// A name and a value: a header field, or a query item in `queryString`.
    public struct Header: Sendable, Equatable {
        /// The name, spelled as sent.
        public var name: String
        /// The value.
        public var value: String

        /// A field.
        ///
        /// - Parameters:
        ///   - name: The header's name.
        ///   - value: The header's value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}

extension HARArchive.Request: Codable {
    private enum Keys: String, CodingKey {
        case method, url, httpVersion, headers, queryString, postData, cookies, headersSize, bodySize
    }

    /// Reads a request; only `method` and `url` are required.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        self.init(
            method: try fields.decode(String.self, forKey: .method),
            url: try fields.decode(String.self, forKey: .url),
            httpVersion: fields.lenient(.httpVersion, default: ""),
            headers: fields.lenient(.headers, default: []),
            postData: fields.lenient(.postData))
    }

    /// Writes every field HAR 1.2 requires: `queryString` from the URL, no `cookies` (a `Cookie`
    /// header's value is all there is), `headersSize` unknown (`-1`), and `bodySize` from the
    /// `Content-Length` field when there is one (a body sent as a stream has no `postData`, and a redacted
    /// one is not its own length), else from the body recorded.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(method, forKey: .method)
        try fields.encode(url, forKey: .url)
        try fields.encode(httpVersion, forKey: .httpVersion)
        try fields.encode([HARArchive.Header](), forKey: .cookies)
        try fields.encode(headers, forKey: .headers)
        try fields.encode(queryString, forKey: .queryString)
        try fields.encodeIfPresent(postData, forKey: .postData)
        try fields.encode(-1, forKey: .headersSize)
        let contentLength = headers.first { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
            .flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
        try fields.encode(contentLength ?? postData?.data.count ?? 0, forKey: .bodySize)
    }
}

extension HARArchive.PostData: Codable {
    private enum Keys: String, CodingKey {
        case mimeType, text, encoding
    }

    /// Reads a body; a missing `text` (a browser may list only `params`) is an empty body.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        mimeType = fields.lenient(.mimeType, default: "")
        text = fields.lenient(.text, default: "")
        encoding = fields.lenient(.encoding)
    }

    /// Writes `mimeType`, `text`, and `encoding` for a binary body.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(mimeType, forKey: .mimeType)
        try fields.encode(text, forKey: .text)
        try fields.encodeIfPresent(encoding, forKey: .encoding)
    }
}

extension HARArchive.Header: Codable {
    private enum Keys: String, CodingKey {
        case name, value
    }

    /// Reads `name` and `value`; a missing value is empty.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        name = try fields.decode(String.self, forKey: .name)
        value = fields.lenient(.value, default: "")
    }

    /// Writes `name` and `value`.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(name, forKey: .name)
        try fields.encode(value, forKey: .value)
    }
}
