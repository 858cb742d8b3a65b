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
        let finish = UncheckedSendable(value: (decoding, successHandler))
        let method = description.method
        let cancelTransport = transport.send(request) { body, response, error in
            task.transportFinished()
            switch ResponseValidator.validate(body: body, response: response, error: error, method: method) {
            case .failure(let error):
                task.fail(error)
            case .success(let reply) where reply.body.count <= ResponseDecoding<Value>.inlineLimit:
                Self.decode(reply, with: finish.value.0, into: task, successHandler: finish.value.1)
            case .success(let reply):
                DispatchQueue.global(qos: .userInitiated).async {
                    Self.decode(reply, with: finish.value.0, into: task, successHandler: finish.value.1)
                }
            }
        }
        task.attach(cancellingWith: cancelTransport)
        return task
    }

    private static func decode<Value>(
        _ reply: Reply,
        with decoding: ResponseDecoding<Value>,
        into task: RequestTask,
        successHandler: @escaping (Value) -> Void
    ) {
        do {
            let value = try decoding.decode(reply)
            task.succeed { successHandler(value) }
        } catch {
            task.fail(error)
        }
    }

    /// Describes a request from a convenience method's arguments and performs it.
    func send<Value>(
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
