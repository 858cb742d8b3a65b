import Foundation
import NetworkLayer

/// A request ``DummyNetworkLayer`` is holding (see ``DummyNetworkLayer/holdsReplies``): recorded, not
/// yet answered. Release it to run its handler; until then the code under test is in its loading state.
///
/// ```swift
/// network.holdsReplies = true
/// presenter.load()
/// XCTAssertTrue(view.isLoading)                    // the reply has not arrived yet
/// network.pendingRequests[0].succeed(with: [todo])  // the handler runs now, on this thread
/// XCTAssertEqual(view.todos, [todo])
/// ```
///
/// Releasing removes the request from ``DummyNetworkLayer/pendingRequests`` and runs the handler
/// synchronously, before the method returns, on the caller's thread (on the layer's
/// ``DummyNetworkLayer/deliveryQueue`` instead when it had one at the time of the request); unless the
/// layer's retry policy or an interceptor retries the answer, as the real layer would: then the retry is
/// held in its turn. Only the first release counts. A
/// request whose task was cancelled has already received `.cancelled` and left the list; releasing it
/// does nothing. Any thread may release a request.
public final class DummyPendingRequest: @unchecked Sendable, CustomStringConvertible {
    /// How a held request is released.
    enum Reply {
        case outcome(DummyOutcome)
        case stubs
    }

    /// The request as recorded, also in ``DummyNetworkLayer/recordedRequests``.
    public let request: RecordedRequest
    /// The task the request method returned.
    let task: DummyTask
    // Immutable. It runs at most once, after `claim()` has let exactly one release through, so the
    // transport's answer it gives is never given twice.
    private let answer: (Reply) -> Void
    private let forget: @Sendable (DummyPendingRequest) -> Void
    // Immutable; reports a transfer's progress to its handler, `nil` for a request without one.
    private let progress: DummyProgressReport?
    private let state = Locked(State())

    /// The stream this request feeds, when it is one.
    let stream: (any DummyStreamFeeding)?

    private struct State {
        /// `true` until the first release or cancel claims the request.
        var isHeld = true
    }

    init(
        request: RecordedRequest, task: DummyTask, stream: (any DummyStreamFeeding)?,
        progress: DummyProgressReport? = nil, answer: @escaping (Reply) -> Void,
        forget: @escaping @Sendable (DummyPendingRequest) -> Void
    ) {
        self.progress = progress
        self.request = request
        self.task = task
        self.stream = stream
        self.answer = answer
        self.forget = forget
    }

    /// Whether the request waits for the test right now: not released, not cancelled.
    var isHeld: Bool {
        state.withLock { $0.isHeld }
    }

    /// Answers with `value`, as a stub's `.success(value)` would: a value of the type the request
    /// expects, or `Data` decoded as the real layer would; anything else fails the request with a
    /// `.custom` error naming both types. Status 200, no headers; ``respond(with:)`` gives others.
    ///
    /// - Parameter value: The answer.
    public func succeed(with value: Any) {
        release(.outcome(.success(value)))
    }

    /// Answers with `error`.
    ///
    /// - Parameter error: What the request's error handler receives.
    public func fail(with error: NetworkError) {
        release(.outcome(.failure(error)))
    }

    /// Answers with `outcome`, as a stub giving it would: a value with the status and headers of
    /// ``DummyOutcome/response(_:statusCode:headers:)``, a reply from the cache with
    /// ``DummyOutcome/cached(_:cacheStatus:statusCode:headers:)``, or an error.
    ///
    /// ```swift
    /// held.respond(with: .response(firstPage, statusCode: 200, headers: ["Link": nextPageLink]))
    /// ```
    ///
    /// - Parameter outcome: The answer.
    public func respond(with outcome: DummyOutcome) {
        release(.outcome(outcome))
    }

    /// Answers from the stubs as an unheld request would, as they are now (a stub added after the
    /// request was made answers it; a stub's sequence advances now).
    public func respond() {
        release(.stubs)
    }

    /// Reports a held transfer's progress now: its progress handler receives `completedBytes` of
    /// `expectedBytes` (by default an upload's body length, as the real layer reports it; unknown for a
    /// download), on this thread, or on the dummy's ``DummyNetworkLayer/deliveryQueue``. So a test moves
    /// a presenter's progress step by step, and scripts what an interrupted resumable upload shows: progress
    /// that pauses while the layer waits to retry, then continues from what the server had.
    ///
    /// Once a test reports progress by hand, the release adds nothing of its own (neither
    /// ``DummyNetworkLayer/scriptedProgress`` nor the final call of every byte). Does nothing for a request
    /// without a progress handler, or once it was released or cancelled.
    ///
    /// - Parameters:
    ///   - completedBytes: The bytes done so far.
    ///   - expectedBytes: The total; `nil` for the upload's body length.
    public func reportProgress(completedBytes: Int64, expectedBytes: Int64? = nil) {
        guard isHeld, let progress else { return }
        progress.dummy.report(
            completed: completedBytes, expected: expectedBytes ?? progress.dummy.uploadLength,
            delivery: progress.delivery)
    }

    /// Sends `bytes` of a held stream's body: each element they complete goes to the stream's event
    /// handler now (on the dummy's ``DummyNetworkLayer/deliveryQueue``, else on this thread; an `async`
    /// consumer takes them when it asks for them: see ``waitUntilConsumed(timeout:)``). An element
    /// that doesn't decode, or an event too large, ends the stream with that error, as the real layer
    /// does. Does nothing for a request that isn't a stream, or once it was released or cancelled.
    ///
    /// - Parameter bytes: The next piece of the body, in the stream's wire format.
    public func push(_ bytes: Data) {
        guard isHeld, let failure = stream?.push(bytes) else { return }
        fail(with: failure)
    }

    /// Sends `event` of a held server-sent event stream (see ``push(_:)-(Data)``).
    ///
    /// - Parameter event: The next event.
    public func push(_ event: ServerSentEvent) {
        push(Data(event.wireFormat.utf8))
    }

    /// Sends `value` as the next line of a held JSON Lines stream (see ``push(_:)-(Data)``).
    ///
    /// - Parameter value: The next line's value, encoded as JSON.
    public func push(jsonLine value: some Encodable) {
        guard let line = try? JSONEncoder().encode(value) else { return }
        push(line + Data("\n".utf8))
    }

    /// Ends a held stream well: its completion handler receives the summary now. For any other request
    /// it is ``respond()``.
    public func finishStream() {
        stream == nil ? respond() : succeed(with: Data())
    }

    /// Waits until the stream's consumer has handled every element pushed so far, at most `timeout`
    /// seconds; returns whether it has. An element is handled once its event handler has returned (on
    /// the dummy's ``DummyNetworkLayer/deliveryQueue`` when there is one); for the `async` form
    /// (`for try await event in network.stream(...)`), once the loop has taken it and asks for the next
    /// element, or has ended. So a test asserts on what a presenter made of the event right after:
    ///
    /// ```swift
    /// held.push(ServerSentEvent(data: "Hel"))
    /// await held.waitUntilConsumed()
    /// XCTAssertEqual(model.answer, "Hel")
    /// ```
    ///
    /// Returns `true` at once for a request that isn't a stream.
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: Whether the consumer handled every pushed element in time.
    @discardableResult
    public func waitUntilConsumed(timeout: TimeInterval = 5) async -> Bool {
        guard let stream else { return true }
        let waiter = Locked<CheckedContinuation<Bool, Never>?>(nil)
        let finish: @Sendable (Bool) -> Void = { consumed in
            waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }?.resume(returning: consumed)
        }
        return await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
            stream.whenConsumed { finish(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { finish(false) }
        }
    }

    /// `held METHOD URL`, as a failing test wants to print it.
    public var description: String { "held \(request)" }

    /// The request's task was cancelled: no release answers it any more. `false` when a release came
    /// first.
    @discardableResult
    func cancel() -> Bool {
        guard claim() else { return false }
        forget(self)
        return true
    }

    private func release(_ reply: Reply) {
        guard claim() else { return }
        forget(self)
        answer(reply)
    }

    /// `true` once, for the first release or cancel.
    private func claim() -> Bool {
        state.withLock { state in
            defer { state.isHeld = false }
            return state.isHeld
        }
    }
}
