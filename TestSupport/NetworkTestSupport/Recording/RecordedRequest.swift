import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request as a test double saw it: what the real layer would put on the wire.
public struct RecordedRequest: Sendable {
    /// The HTTP method.
    public let method: HTTPMethod
    /// The full URL, query included.
    public let url: URL
    /// The headers as sent, the layer's default headers merged in.
    public let headers: [String: String]
    /// The body bytes exactly as encoded, or `nil` when the request had none. An upload of bytes has
    /// them here; a file or form upload has `nil` (see ``upload``).
    public let body: Data?
    /// What an upload would have sent: bytes, a file or a form; `nil` for any other request.
    public let upload: RecordedUpload?
    /// Where a download would have been written; `nil` for any other request.
    public let downloadDestination: URL?

    /// Creates a recorded request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The full URL, query included.
    ///   - headers: The headers as sent.
    ///   - body: The body bytes, or `nil` for none.
    ///   - upload: What an upload sent (bytes, a file or a form), or `nil`.
    ///   - downloadDestination: Where a download was to be written, or `nil`.
    public init(
        method: HTTPMethod, url: URL, headers: [String: String], body: Data?, upload: RecordedUpload? = nil,
        downloadDestination: URL? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.upload = upload
        self.downloadDestination = downloadDestination
    }

    /// The value of a header, looked up without regard to case.
    ///
    /// - Parameter name: The header's name, in any case.
    /// - Returns: The value, or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body decoded from JSON as `type`; throws the decoder's error, so a failing test says why
    /// (a missing key, a key in another case), or `DecodingError.valueNotFound` when there is no body.
    ///
    /// Pass the app's decoder when its encoder uses a key or date strategy.
    /// ``MockServerRequest/decodedBody(as:decoder:)`` reads a request that reached a `MockServer` the
    /// same way.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; pass the app's when it uses a key or date strategy.
    /// - Returns: The decoded body.
    public func decodedBody<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else {
            let context = DecodingError.Context(
                codingPath: [], debugDescription: "\(self) has no body to decode as \(T.self)")
            throw DecodingError.valueNotFound(T.self, context)
        }
        return try decoder.decode(T.self, from: body)
    }
}

extension RecordedRequest: CustomStringConvertible {
    /// `METHOD URL`, as a failing test wants to print it.
    public var description: String { "\(method.rawValue) \(url.absoluteString)" }
}

extension RecordedRequest {
    /// Records a `URLRequest`, reading its body from `httpBody` or, failing that, `httpBodyStream`; a
    /// transfer's upload or destination is recorded beside it.
    init(_ request: URLRequest, transfer: TransferDescription? = nil) {
        var upload: RecordedUpload?
        var destination: URL?
        var body = request.httpBody ?? request.httpBodyStream.map(Self.readAll)
        switch transfer {
        case .upload(let source)?:
            upload = RecordedUpload(source)
            if case .data(let data) = upload { body = data }
        case .download(let target)?:
            destination = target.destination
        case nil:
            break
        }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET") ?? .get,
            url: request.url ?? URL(fileURLWithPath: "/"),
            headers: request.allHTTPHeaderFields ?? [:], body: body, upload: upload,
            downloadDestination: destination)
    }

    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
