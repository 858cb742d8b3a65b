import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The pipeline every request goes through: build, send, validate, decode, deliver.
    func perform<Value>(
        _ description: RequestDescription,
        decoding: ResponseDecoding<Value>,
        successHandler: @escaping (Value) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let task = RequestTask(callbackQueue: callbackQueue, failureHandler: errorHandler)
        let request: URLRequest
        do {
            request = try builder.urlRequest(for: description)
        } catch {
            task.fail(error)
            return task
        }
        // Decoding and the success handler are not Sendable; they go from here to the one queue that
        // decodes, and the handler on to the callback queue (see UncheckedSendable).
        let finish = UncheckedSendable(value: { (reply: Reply) in
            do throws(NetworkError) {
                let value = try decoding.decode(reply)
                task.succeed { successHandler(value) }
            } catch {
                task.fail(error)
            }
        })
        let method = description.method
        let decodesInPlace = !decoding.runsCallerCode
        let limit = description.maximumResponseSize ?? maximumResponseSize
        let cancelTransport = transport.send(request, limit: limit, redirectPolicy: redirectPolicy) { body, response, error in
            task.transportFinished()
            switch ResponseValidator.validate(body: body, response: response, error: error, method: method) {
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
        task.attach(cancellingWith: cancelTransport)
        return task
    }

    /// Describes a request from a convenience method's arguments and performs it.
    func perform<Value>(
        _ method: HTTPMethod,
        _ urlString: String,
        body: RequestBody,
        _ headers: [String: String],
        _ decoding: ResponseDecoding<Value>,
        _ successHandler: @escaping (Value) -> Void,
        _ errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        perform(
            RequestDescription(method: method, urlString: urlString, headers: headers, body: body),
            decoding: decoding, successHandler: successHandler, errorHandler: errorHandler)
    }
}
