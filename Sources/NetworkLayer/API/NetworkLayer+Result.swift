extension NetworkLayer {
    /// Sends `request` through ``send(_:successHandler:errorHandler:)``, with one `Result` completion.
    ///
    /// ```swift
    /// network.send(NetworkRequest<[Item]>(urlString: "items")) { result in
    ///     switch result {
    ///     case .success(let response): show(response.value)
    ///     case .failure(let error): show(error.message)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send, and what the reply becomes.
    ///   - completion: Receives the outcome on ``callbackQueue``, exactly once.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func send<Value>(
        _ request: NetworkRequest<Value>,
        completion: @escaping (Result<NetworkResponse<Value>, NetworkError>) -> Void
    ) -> NetworkTask {
        send(
            request, successHandler: { completion(.success($0)) }, errorHandler: { completion(.failure($0)) })
    }
}
