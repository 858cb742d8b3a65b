/// A reply turned into the bytes to write.
struct EncodedResponse {
    /// Status line and header section, up to and including the empty line.
    var head: [UInt8]
    /// The bytes after the head (chunk-framed when chunked; empty when no body is allowed).
    var body: [UInt8]
    /// Whether the server closes the connection once these bytes are written.
    var closesConnection: Bool
}

/// Turns a ``MockResponse`` into wire bytes for one request: framing, ranges, HEAD,
/// body-less statuses and the mid-body disconnect.
enum ResponseEncoder {
    /// Header fields the server computes itself; scripted ones are dropped.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

    static func encode(_ response: MockResponse, for request: MockServerRequest) -> EncodedResponse {
        var status = response.status
        var body = [UInt8](response.body)
        var fields = response.headers.filter { !framingFields.contains($0.name.lowercased()) }
        let fullLength = body.count
        if response.supportsRanges && status == 200 {
            fields.append(("Accept-Ranges", "bytes"))
            if request.method == "GET" || request.method == "HEAD", let range = request.header("Range") {
                switch ByteRange.parse(range, length: fullLength) {
                case .satisfiable(let slice):
                    status = 206
                    fields.append(
                        ("Content-Range", "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(fullLength)"))
                    body = Array(body[slice])
                case .unsatisfiable:
                    status = 416
                    fields.append(("Content-Range", "bytes */\(fullLength)"))
                    body = []
                case .ignored:
                    break
                }
            }
        }
        let cutsBody = response.fault == .disconnectMidBody
        let closes =
            !request.wantsKeepAlive || cutsBody
            || response.header("Connection")?.lowercased().contains("close") == true
        let statusAllowsBody = status >= 200 && status != 204 && status != 304
        let sendsBody = statusAllowsBody && request.method != "HEAD"
        var wireBody: [UInt8] = []
        if statusAllowsBody {
            if cutsBody {
                fields.append(("Content-Length", String(max(1, body.count))))
                wireBody = Array(body.prefix(body.count / 2))
            } else if let size = response.chunkSize, status != 206 {
                fields.append(("Transfer-Encoding", "chunked"))
                wireBody = chunkEncoded(body, size: max(1, size))
            } else {
                fields.append(("Content-Length", String(body.count)))
                wireBody = body
            }
        }
        if closes { fields.append(("Connection", "close")) }
        var head = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        return EncodedResponse(
            head: Array(head.utf8), body: sendsBody ? wireBody : [], closesConnection: closes)
    }

    /// A small reply for a request that could not be parsed; the connection then closes.
    static func errorReply(status: Int, detail: String) -> [UInt8] {
        let text = "\(reasonPhrase(status)): \(detail)\n"
        let head =
            "HTTP/1.1 \(status) \(reasonPhrase(status))\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + text).utf8)
    }

    private static func chunkEncoded(_ body: [UInt8], size: Int) -> [UInt8] {
        var wire: [UInt8] = []
        wire.reserveCapacity(body.count + body.count / size * 12 + 5)
        var start = 0
        while start < body.count {
            let end = min(start + size, body.count)
            wire += Array(String(end - start, radix: 16).utf8) + [13, 10] + body[start..<end] + [13, 10]
            start = end
        }
        return wire + Array("0\r\n\r\n".utf8)
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 422: "Unprocessable Content",
        429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    static func reasonPhrase(_ status: Int) -> String {
        phrases[status] ?? "Status \(status)"
    }
}

/// A single byte range requested with `Range: bytes=…`.
enum ByteRange: Equatable {
    case satisfiable(Range<Int>)
    case unsatisfiable
    /// Not a single byte range we understand: RFC 9110 says to ignore the field.
    case ignored

    /// Interprets `bytes=N-`, `bytes=N-M` and `bytes=-S` (the last `S` bytes) for a body of `length` bytes.
    static func parse(_ field: String, length: Int) -> ByteRange {
        let text = field.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes=") else { return .ignored }
        let spec = text.dropFirst("bytes=".count).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let firstText = spec[..<dash].trimmingSpaces()
        let lastText = spec[spec.index(after: dash)...].trimmingSpaces()
        let number = { (text: String) -> Int? in
            text.isEmpty || !text.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil : Int(text) ?? Int.max
        }
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .ignored }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard let first = number(firstText) else { return .ignored }
        var last = length - 1
        if !lastText.isEmpty {
            guard let value = number(lastText), value >= first else { return .ignored }
            last = min(value, length - 1)
        }
        guard first < length else { return .unsatisfiable }
        return .satisfiable(first..<last + 1)
    }
}
