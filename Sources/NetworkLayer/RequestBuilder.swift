import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the `URLRequest` a description stands for: URL, method, headers, body and timeout.
///
/// Shared with `NetworkTestSupport` so that test doubles record exactly what the real layer would send.
package struct RequestBuilder: Sendable {
    package let resolver: URLResolver
    package let defaultHeaders: [String: String]
    package let encoder: JSONEncoder
    package let timeout: TimeInterval

    package func urlRequest(for description: RequestDescription) throws(NetworkError) -> URLRequest {
        let url = try resolver.url(
            for: description.urlString, query: description.query, requiringPath: description.requiresPath)
        let body = try description.body.encoded(with: encoder)
        var request = URLRequest(url: url)
        request.httpMethod = description.method.rawValue
        request.timeoutInterval = description.timeout ?? timeout
        // Later writes win and header names are case-insensitive, so each layer overrides the one before:
        // the layer's defaults, then the layer's default headers, then the caller's.
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            // Set explicitly: without it FoundationNetworking sends application/x-www-form-urlencoded.
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
            // httpBody, not uploadTask(from:): a URLProtocol on Linux sees no body from an upload task.
            request.httpBody = body.data
        }
        for (name, value) in defaultHeaders { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in description.headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}
