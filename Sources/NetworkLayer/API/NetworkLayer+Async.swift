import Foundation

// The general `async` form (the convenience ones are in NetworkLayer+Requests.swift); it goes through
// `send`, so a subclass that overrides it answers them too. Why every `async` form takes
// `isolation: isolated (any Actor)? = #isolation`: the method runs on the caller's actor, so a
// request (not `Sendable`) kept in a property can be passed and a non-`Sendable` reply can come back.
extension NetworkLayer {
    /// Sends `request` through ``send(_:successHandler:errorHandler:)`` and returns its reply.
    ///
    /// ```swift
    /// let response = try await network.send(NetworkRequest<[Item]>(urlString: "items"))
    /// let total = response.headers["X-Total-Count"]
    /// ```
    ///
    /// Cancelling the Swift `Task` cancels the request and throws ``NetworkError/cancelled``; a task
    /// cancelled before the call sends nothing. The call returns as soon as the outcome is settled, not
    /// via ``callbackQueue`` (so a busy queue doesn't delay it), except that a transfer with a
    /// ``NetworkRequest/progressHandler`` returns after its last progress call.
    ///
    /// Downloads and uploads are requests too:
    ///
    /// ```swift
    /// let file = try await network.send(NetworkRequest.download(urlString: "report.pdf", to: destination)).value
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send, and what the reply becomes.
    ///   - isolation: The caller's actor; leave it out.
    /// - Returns: The decoded reply, with its status, headers and URL.
    /// - Throws: The ``NetworkError`` the error handler would have received.
    public func send<Value>(
        _ request: NetworkRequest<Value>, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkError) -> NetworkResponse<Value> {
        let bridge = AsyncBridge<Value>()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { continuation in
                bridge.start(request, on: self, continuation: continuation)
            }
        } onCancel: {
            bridge.cancel()
        }
        return try outcome.value.get()
    }
}
