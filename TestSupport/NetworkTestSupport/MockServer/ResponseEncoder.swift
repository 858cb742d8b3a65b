import Foundation
import LoopbackHTTP

/// A reply turned into the bytes to write.
struct EncodedResponse {
    /// Status line and header section, up to and including the empty line.
    var head: [UInt8]
    /// The bytes after the head (chunk-framed when chunked; empty when no body is allowed).
    var body: WireBody
    /// Whether the server closes the connection once these bytes are written.
    var closesConnection: Bool
}

/// Turns a ``MockResponse`` into wire bytes for one request: content coding, framing, ranges,
/// HEAD, body-less statuses and the mid-body disconnect.
enum ResponseEncoder {
    /// Header fields the server computes itself; scripted ones are dropped.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// A reply's status, fields and body once ranges and framing are decided.
    private struct Framed {
        var status: Int
        var fields: [(name: String, value: String)]
        var body: WireBody
        var cutsBody = false
    }

    static func encode(_ response: MockResponse, for request: MockServerRequest) -> EncodedResponse {
        var fields = response.headers.filter { !framingFields.contains($0.name.lowercased()) }
        let gzip = response.contentEncoding == .gzip
        if gzip {
            fields.removeAll { $0.name.lowercased() == "content-encoding" }
            fields.append(("Content-Encoding", "gzip"))
        }
        let framed: Framed
        switch response.content {
        case .data(let data):
            let bytes = gzip ? GzipEncoder.encode([UInt8](data)) : [UInt8](data)
            framed = frame(bytes, of: response, fields: fields, for: request)
        case .stream(let length, let makeChunks):
            framed = frame(stream: makeChunks, length: length, of: response, fields: fields, for: request)
        }
        let closes =
            !request.wantsKeepAlive || framed.cutsBody
            || response.header("Connection")?.lowercased().contains("close") == true
        var head = "HTTP/1.1 \(framed.status) \(HTTPStatus.reasonPhrase(framed.status))\r\n"
        for field in framed.fields { head += "\(field.name): \(field.value)\r\n" }
        if closes { head += "Connection: close\r\n" }
        head += "\r\n"
        return EncodedResponse(head: Array(head.utf8), body: framed.body, closesConnection: closes)
    }

    /// Frames a body held in memory (already content-coded): ranges, the mid-body cut, chunked
    /// or `Content-Length`.
    private static func frame(
        _ encodedBody: [UInt8], of response: MockResponse, fields scripted: [(name: String, value: String)],
        for request: MockServerRequest
    ) -> Framed {
        var status = response.status
        var body = encodedBody
        var fields = scripted
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
        var wireBody: [UInt8] = []
        if HTTPStatus.allowsBody(status) {
            if cutsBody {
                fields.append(("Content-Length", String(max(1, body.count))))
                wireBody = Array(body.prefix(body.count / 2))
            } else if let size = response.chunkSize, status != 206 {
                fields.append(("Transfer-Encoding", "chunked"))
                wireBody = ChunkedCoding.frame(body, maxChunk: max(1, size)) + ChunkedCoding.end
            } else {
                fields.append(("Content-Length", String(body.count)))
                wireBody = body
            }
        }
        let sendsBody = HTTPStatus.allowsBody(status) && request.method != "HEAD"
        return Framed(
            status: status, fields: fields, body: WireBody(bytes: sendsBody ? wireBody : []),
            cutsBody: cutsBody)
    }

    /// Frames a streamed body: `Content-Length` when its length is known and it is neither
    /// chunked nor gzip-encoded, chunked otherwise. Ranges and the mid-body cut do not apply.
    private static func frame(
        stream makeChunks: @escaping WireBody.MakeChunks, length: Int?, of response: MockResponse,
        fields scripted: [(name: String, value: String)], for request: MockServerRequest
    ) -> Framed {
        var fields = scripted
        let framing: WireBody.Framing
        if let length, response.chunkSize == nil, response.contentEncoding == .identity {
            framing = .contentLength
            fields.append(("Content-Length", String(max(0, length))))
        } else {
            framing = .chunked(maxChunk: response.chunkSize.map { max(1, $0) })
            fields.append(("Transfer-Encoding", "chunked"))
        }
        guard HTTPStatus.allowsBody(response.status) else {
            return Framed(status: response.status, fields: scripted, body: .empty)
        }
        guard request.method != "HEAD" else {
            return Framed(status: response.status, fields: fields, body: .empty)
        }
        let body = WireBody(
            stream: makeChunks, length: length, gzip: response.contentEncoding == .gzip, framing: framing)
        return Framed(status: response.status, fields: fields, body: body)
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
