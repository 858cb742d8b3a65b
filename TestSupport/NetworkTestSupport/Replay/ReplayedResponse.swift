import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A recorded response as a test double sends it again.
///
/// The recorded body is the decoded one (a browser, like the layer, removes gzip before it records), so
/// `Content-Encoding` is dropped with the framing fields (`Content-Length`, `Transfer-Encoding`,
/// `Connection`, `Keep-Alive`) and HTTP/2 pseudo-headers; the double frames the body itself. A
/// `Content-Type` is added from `content.mimeType` when the headers have none. A status of `0` (a
/// browser's record of a request that got no response) becomes a lost connection.
enum ReplayedResponse {
    private static let dropped: Set<String> = [
        "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive",
    ]

    /// The header fields to send, in the recorded order.
    static func headers(of response: HARArchive.Response) -> [(name: String, value: String)] {
        var fields = response.headers.filter {
            !$0.name.hasPrefix(":") && !dropped.contains($0.name.lowercased())
        }.map { (name: $0.name, value: $0.value) }
        if !response.content.mimeType.isEmpty, response.content.mimeType != "x-unknown",
            !fields.contains(where: { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame })
        {
            fields.append((name: "Content-Type", value: response.content.mimeType))
        }
        return fields
    }

    /// The answer of a ``StubTransport``; several fields of one name are joined by `, `.
    static func stubResponse(for entry: HARArchive.Entry) -> StubResponse {
        let response = entry.response
        guard response.status > 0 else { return .failure(URLError(.networkConnectionLost)) }
        var fields: [String: String] = [:]
        for field in headers(of: response) {
            let name =
                fields.keys.first { $0.caseInsensitiveCompare(field.name) == .orderedSame } ?? field.name
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return StubResponse(status: response.status, headers: fields, body: response.content.data)
    }

    /// The answer of a ``MockServer``, every recorded field sent as recorded.
    static func mockResponse(for entry: HARArchive.Entry) -> MockResponse {
        let response = entry.response
        guard response.status > 0 else { return MockResponse().withFault(.disconnectAfterRequest) }
        var reply = MockResponse(status: response.status, body: response.content.data)
        reply.headers = headers(of: response)
        return reply
    }
}
