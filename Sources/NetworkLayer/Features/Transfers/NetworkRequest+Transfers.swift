import Foundation

extension NetworkRequest where Value == URL {
    /// A GET whose reply is streamed to `destination`, the success value once the file is complete; a
    /// partial download left there is resumed.
    ///
    /// ```swift
    /// var request = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
    /// request.progressHandler = { progress in bar.fraction = progress.fractionCompleted ?? 0 }
    /// let file = try await network.send(request).value
    /// ```
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    ///   - destination: Where the file goes once complete; its partial download sits beside it until then.
    ///   - options: How to treat an existing file or partial download; none by default.
    ///   - headers: Headers for this request; they override the layer's default headers.
    /// - Returns: The request.
    public static func download(
        urlString: String, to destination: URL, options: DownloadOptions = [], headers: [String: String] = [:]
    ) -> NetworkRequest<URL> {
        NetworkRequest(urlString: urlString, headers: headers).downloading(to: destination, options: options)
    }

    /// An endpoint's reply written to `destination`, as ``download(urlString:to:options:headers:)`` writes it.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query and headers.
    ///   - destination: Where the file goes once complete; its partial download sits beside it until then.
    ///   - options: How to treat an existing file or partial download; none by default.
    /// - Returns: The request.
    public static func download(
        _ endpoint: any Endpoint, to destination: URL, options: DownloadOptions = []
    ) -> NetworkRequest<URL> {
        NetworkRequest(endpoint).downloading(to: destination, options: options)
    }

    /// This request, its reply written to `destination` and the file's URL its success value.
    private func downloading(to destination: URL, options: DownloadOptions) -> NetworkRequest<URL> {
        let target = DownloadTarget(destination: destination, options: options)
        var request = self
        request.transfer = .download(target)
        request.decoding = { _ in ResponseDecoding(runsCallerCode: false) { _ in target.destination } }
        return request
    }
}

extension NetworkRequest where Value: Decodable & SendableMetatype {
    /// A request that sends a file, streamed from disk, and decodes the reply as `Value`
    /// (``EmptyResponse`` accepts any 2xx reply).
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    ///   - method: The HTTP method; POST by default.
    ///   - fileURL: The file to send.
    ///   - contentType: The body's `Content-Type`; guessed from the file name (else
    ///     `application/octet-stream`) when `nil`.
    ///   - headers: Headers for this request; they override the layer's default headers.
    /// - Returns: The request.
    public static func upload(
        urlString: String, method: HTTPMethod = .post, fileURL: URL, contentType: String? = nil,
        headers: [String: String] = [:]
    ) -> NetworkRequest<Value> {
        upload(
            method: method, urlString: urlString, headers: headers,
            source: .file(fileURL, contentType: contentType ?? MediaTypes.guess(for: fileURL)))
    }

    /// A request that sends `data` and decodes the reply as `Value`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    ///   - method: The HTTP method; POST by default.
    ///   - data: The bytes to send.
    ///   - contentType: The body's `Content-Type`; `application/octet-stream` when `nil`.
    ///   - headers: Headers for this request; they override the layer's default headers.
    /// - Returns: The request.
    public static func upload(
        urlString: String, method: HTTPMethod = .post, data: Data, contentType: String? = nil,
        headers: [String: String] = [:]
    ) -> NetworkRequest<Value> {
        upload(
            method: method, urlString: urlString, headers: headers,
            source: .data(data, contentType: contentType ?? "application/octet-stream"))
    }

    /// A request that sends a `multipart/form-data` form, its files streamed from disk, and decodes the
    /// reply as `Value`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against the layer's base URL.
    ///   - method: The HTTP method; POST by default.
    ///   - multipart: The form.
    ///   - headers: Headers for this request; they override the layer's default headers.
    /// - Returns: The request.
    public static func upload(
        urlString: String, method: HTTPMethod = .post, multipart: MultipartFormData,
        headers: [String: String] = [:]
    ) -> NetworkRequest<Value> {
        upload(
            method: method, urlString: urlString, headers: headers, source: .multipart(multipart))
    }

    private static func upload(
        method: HTTPMethod, urlString: String, headers: [String: String], source: UploadSource
    ) -> NetworkRequest<Value> {
        var request = NetworkRequest(method: method, urlString: urlString, headers: headers)
        request.transfer = .upload(source)
        return request
    }
}
