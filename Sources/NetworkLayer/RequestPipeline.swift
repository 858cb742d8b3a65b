import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The pipeline behind ``send(_:successHandler:errorHandler:)``: build, send, validate, decode,
    /// deliver.
    func perform<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let task = RequestTask(callbackQueue: callbackQueue, failureHandler: errorHandler)
        let urlRequest: URLRequest
        do {
            urlRequest = try builder.urlRequest(for: request)
        } catch {
            task.fail(error)
            return task
        }
        let decoding = request.decoding(decoder)
        // Decoding and the success handler are not Sendable; they go from here to the one queue that
        // decodes, and the handler on to the callback queue (see UncheckedSendable).
        let finish = UncheckedSendable(value: { (reply: Reply) in
            do throws(NetworkError) {
                let response = NetworkResponse(
                    value: try decoding.decode(reply), statusCode: reply.response.statusCode,
                    headers: ResponseHeaders(reply.response), url: reply.response.url, data: reply.body)
                task.succeed { successHandler(response) }
            } catch {
                task.fail(error)
            }
        })
        let decodesInPlace = !decoding.runsCallerCode
        let deliver: @Sendable (Result<Reply, NetworkError>) -> Void = { result in
            switch result {
            case .failure(let error):
                task.fail(error)
            case .success(let reply) where decodesInPlace:
                finish.value(reply)
            case .success(let reply):
                // Off the session's serial delegate queue: a slow `Decodable` must not hold up every other
                // request on the session.
                DispatchQueue.global(qos: .userInitiated).async { finish.value(reply) }
            }
        }
        let expectation = ReplyExpectation(
            method: request.method, acceptableContentTypes: request.acceptableContentTypes)
        let limit = request.maximumResponseSize ?? maximumResponseSize
        let transport = transport
        let redirectPolicy = redirectPolicy
        // Attempts after the first may start after the layer has gone: they keep its session valid.
        let ownSession = ownSession
        let send: RequestAttempts<Reply>.Send = { attempt, done in
            withExtendedLifetime(ownSession) {}
            let cancel = transport.send(attempt, limit: limit, redirectPolicy: redirectPolicy) {
                body, response, error in
                task.transportFinished()
                done(
                    ResponseValidator.validate(
                        body: body, response: response, error: error, expecting: expectation))
            }
            task.attach(cancellingWith: cancel)
        }
        let policy = request.retryPolicy ?? retryPolicy
        guard !interceptors.isEmpty || policy.retries else {
            send(urlRequest, deliver)
            return task
        }
        // Interceptors may do real work (sign a body, wait for a token): never on the caller's queue,
        // usually the main queue, nor on the session's delegate queue.
        let attempts = RequestAttempts(
            request: urlRequest, method: request.method, interceptors: interceptors, policy: policy,
            isCancelled: { task.isSettled }, usesPolicyQueue: true, send: send, finish: deliver)
        attempts.start()
        return task
    }

    /// The request a body-carrying convenience method stands for, sent through the funnel.
    func sendBody<T: Encodable, R: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, _ body: T, _ headers: [String: String],
        _ successHandler: @escaping (NetworkResponse<R>) -> Void,
        _ errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(method: method, urlString: urlString, headers: headers, body: .json(body)),
            successHandler: successHandler, errorHandler: errorHandler)
    }
}
