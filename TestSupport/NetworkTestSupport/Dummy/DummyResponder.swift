import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How ``DummyNetworkLayer`` answers each request its layer's own `send` is given: recorded as the real
/// layer would send it, then answered from the stubs, or held for the test, by an in-process transport.
/// The layer runs its own pipeline over it: the real builder, interceptors, retries, validation,
/// decoding, monitors and delivery latch.
struct DummyResponder: InProcessResponder {
    let state: Locked<DummyState>

    func call<Value>(for request: NetworkRequest<Value>, on layer: NetworkLayer) -> InProcessCall {
        if let endpoint = request.endpoint { state.withLock { $0.endpoints.append(endpoint) } }
        // Immediate: where the answer is settled (in `send`, on the thread that releases or cancels a
        // held reply, where an interceptor completed), unless the test asked for a delivery queue.
        let delivery = state.withLock { $0.deliveryQueue }.map { CallbackDelivery(queue: $0) } ?? .immediate
        var recorded: RecordedRequest?
        do throws(NetworkError) {
            recorded = RecordedRequest(try layer.builder.urlRequest(for: request), transfer: request.transfer)
        } catch {
            // The pipeline refuses it the same way, before any attempt: it is listed, never recorded.
            let refused = RefusedRequest(method: request.method, urlString: request.urlString, error: error)
            state.withLock { $0.refused.append(refused) }
        }
        let task = DummyTask(request: recorded) { [weak state] task in
            guard let recorded = task.request else { return }
            state?.withLock { $0.cancelled.append(recorded) }
        }
        // Opens once `send` has returned the task: a test woken by the hold (see `nextPendingRequest`)
        // then finds the request as the caller has it, known to `cancelAll()`.
        let latch = DummySendLatch()
        return InProcessCall(
            answer: answering(request, task: task, latch: latch, delivery: delivery), delivery: delivery,
            started: { pipelineTask in
                task.attach(pipelineTask)
                return task
            },
            returned: latch.open)
    }

    /// The transport that answers each attempt of `request` from the stubs as they are at that moment, or
    /// holds it for the test when ``holdsReplies`` is set.
    private func answering<Value>(
        _ request: NetworkRequest<Value>, task: DummyTask, latch: DummySendLatch, delivery: CallbackDelivery
    ) -> InProcessTransport.Answer {
        let transfer = request.transfer
        let cacheOnly = request.cachePolicy == .returnCacheDataDontLoad
        // Not Sendable (closures of the caller's types); used only by this request's attempts, one at a time.
        let rules = UncheckedSendable(
            value: (
                expected: DummyExpectation.value(Value.self, from: request),
                progress: DummyProgress(request, script: state.withLock { $0.scriptedProgress }),
                stream: request.streamConsumer as? any DummyStreamFeeding
            ))
        return { [state] attempt, respond in
            let recorded = RecordedRequest(attempt, transfer: transfer)
            let (expected, progress, _) = rules.value
            let give = { (answer: Result<InProcessReply, NetworkError>) in
                let succeeds = (try? answer.get()).map { expected.accepts($0.statusCode) } ?? false
                progress?.report(beforeAnswerThat: succeeds, delivery: delivery)
                respond(answer)
            }
            let pending = DummyPendingRequest(
                request: recorded, task: task, stream: rules.value.stream,
                progress: progress.map { DummyProgressReport(dummy: $0, delivery: delivery) },
                answer: { [weak state] reply in
                    // Released by the test: answered on its thread, now, unless there is a delivery queue.
                    give(
                        Self.answer(
                            recorded, releasedWith: reply, expected: expected, cacheOnly: cacheOnly,
                            state: state))
                },
                forget: { [weak state] pending in
                    state?.withLock { $0.held.remove(pending) }
                })
            // Recording and the choice between holding and answering are one step, so an attempt is held
            // exactly when `holdsReplies` was set at the moment it was recorded.
            let decision: DummyDecision = state.withLock { state in
                guard state.holdsReplies else { return .answer(state.record(recorded, cacheOnly: cacheOnly)) }
                state.recorded.append(recorded)
                return .hold(waiter: state.held.hold(pending))
            }
            switch decision {
            case .answer(let source):
                give(source.answer(for: recorded, expecting: expected))
                return {}
            case .hold(let waiter):
                // Only once the call that made the request has returned, with the task linked: the
                // test it wakes may release or cancel the request at once.
                if let waiter { latch.afterSend { waiter.resume(returning: pending) } }
                return { pending.cancel() }
            }
        }
    }

    /// The answer a test's release of a held request gives.
    private static func answer<Value>(
        _ request: RecordedRequest, releasedWith reply: DummyPendingRequest.Reply,
        expected: DummyExpectation<Value>, cacheOnly: Bool, state: Locked<DummyState>?
    ) -> Result<InProcessReply, NetworkError> {
        switch reply {
        case .outcome(let outcome):
            return outcome.answer(for: request, expecting: expected, "it was released with")
        case .stubs:
            guard let source = state?.withLock({ $0.source(for: request, cacheOnly: cacheOnly) }) else {
                let gone = "respond() has no stubs to answer from: its DummyNetworkLayer is gone"
                return .failure(expected.mismatch(request, gone))
            }
            return source.answer(for: request, expecting: expected)
        }
    }
}

/// What the dummy does with an attempt: answer it from `source`, or hold it (for `waiter`, a task
/// waiting for the next held request, when there is one).
private enum DummyDecision {
    case answer(DummySource)
    case hold(waiter: DummyHeldRequests.Waiter?)
}
