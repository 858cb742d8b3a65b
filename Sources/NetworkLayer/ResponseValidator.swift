import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What came back for one request, once the transport has finished with it.
struct Reply {
    let body: Data
    let response: HTTPURLResponse
    let method: HTTPMethod

    /// 204, 205, a reply to HEAD, or a zero-length body: there is nothing to decode.
    var hasNoContent: Bool {
        body.isEmpty || method == .head || response.statusCode == 204 || response.statusCode == 205
    }
}

/// Turns the transport's raw outcome into a reply or an error: transport errors, non-HTTP responses and
/// statuses outside 2xx all fail here.
enum ResponseValidator {
    static func validate(
        body: Data,
        response: URLResponse?,
        error: (any Error)?,
        method: HTTPMethod
    ) -> Result<Reply, NetworkError> {
        if let error { return .failure(NetworkError(transportError: error)) }
        guard let response = response as? HTTPURLResponse else { return .failure(.invalidResponse) }
        guard (200..<300).contains(response.statusCode) else {
            return .failure(
                .unacceptableStatusCode(response.statusCode, body: body, headers: headers(of: response)))
        }
        return .success(Reply(body: body, response: response, method: method))
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for case (let name as String, let value) in response.allHeaderFields {
            headers[name] = "\(value)"
        }
        return headers
    }
}
