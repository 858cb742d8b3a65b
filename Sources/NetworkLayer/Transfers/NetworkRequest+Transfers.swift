import Foundation

extension NetworkRequest where Value == URL {
    /// The request behind ``NetworkLayer/download(urlString:to:options:headers:progressHandler:successHandler:errorHandler:)``:
    /// a GET whose reply is written to `destination`, the success value being `destination`.
    package static func download(
        urlString: String, headers: [String: String], to destination: URL, options: DownloadOptions,
        progressHandler: ((TransferProgress) -> Void)?
    ) -> NetworkRequest<URL> {
        let target = DownloadTarget(destination: destination, options: options)
        var request = NetworkRequest<URL>(
            method: .get, urlString: urlString, query: [:], queryItems: [], headers: headers, body: .empty,
            timeout: nil, maximumResponseSize: nil, acceptableContentTypes: nil, endpoint: nil,
            decoding: Self.downloaded(to: target.destination))
        request.transfer = .download(target)
        request.progressHandler = progressHandler
        return request
    }

    /// An endpoint's request, its reply written to `destination`.
    package static func download(
        _ endpoint: any Endpoint, to destination: URL, options: DownloadOptions,
        progressHandler: ((TransferProgress) -> Void)?
    ) -> NetworkRequest<URL> {
        let target = DownloadTarget(destination: destination, options: options)
        var request = NetworkRequest<URL>(
            method: endpoint.method, urlString: endpoint.path, query: endpoint.query, queryItems: [],
            headers: endpoint.headers, body: endpoint.body, timeout: endpoint.timeout,
            maximumResponseSize: endpoint.maximumResponseSize,
            acceptableContentTypes: endpoint.acceptableContentTypes, endpoint: endpoint,
            decoding: Self.downloaded(to: target.destination))
        request.transfer = .download(target)
        request.progressHandler = progressHandler
        return request
    }

    /// A download's success value: where the file now is (the body went to disk, not to memory).
    private static func downloaded(to destination: URL) -> @Sendable (JSONDecoder) -> ResponseDecoding<URL> {
        { _ in ResponseDecoding(runsCallerCode: false) { _ in destination } }
    }
}

extension NetworkRequest where Value: Decodable & SendableMetatype {
    /// The request behind the `upload` methods of ``NetworkLayer``: `source` as the body, the reply
    /// decoded as `Value`.
    package static func upload(
        method: HTTPMethod, urlString: String, headers: [String: String], source: UploadSource,
        progressHandler: ((TransferProgress) -> Void)?
    ) -> NetworkRequest<Value> {
        var request = NetworkRequest(method: method, urlString: urlString, headers: headers)
        request.transfer = .upload(source)
        request.progressHandler = progressHandler
        return request
    }
}
