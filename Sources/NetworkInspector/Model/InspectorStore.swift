import Foundation
import NetworkLayer

/// What the inspector holds: the last requests (each body cut short), streams, transfers and an outbox's
/// queue. Its lock owns the records; it is never held while JSON is encoded or a tab is written to.
final class InspectorStore: Sendable {
    /// The most requests kept (and streams, and transfers): older ones are evicted.
    let maximumRequests: Int
    /// The most bytes kept of each body.
    let maximumBodyBytes: Int
    let clock: InspectorClock

    private struct State {
        var requests: BoundedRecords<RequestRecord>
        var streams: BoundedRecords<StreamRecord>
        var transfers: BoundedRecords<TransferRecord>
        var outbox: OutboxRecord?
        var dropped = 0
    }

    private let state: Locked<State>

    init(maximumRequests: Int, maximumBodyBytes: Int, clock: InspectorClock = InspectorClock()) {
        self.maximumRequests = max(1, maximumRequests)
        self.maximumBodyBytes = max(0, maximumBodyBytes)
        self.clock = clock
        state = Locked(
            State(
                requests: BoundedRecords(limit: maximumRequests),
                streams: BoundedRecords(limit: maximumRequests),
                transfers: BoundedRecords(limit: maximumRequests)))
    }

    /// Changes request `id`, made by `make` when absent; `nil` when it is absent and `make` gives none.
    func updateRequest(
        _ id: String, make: () -> RequestRecord? = { nil }, _ change: (inout RequestRecord) -> Void
    ) -> RequestRecord? {
        state.withLock { state in
            let (record, evicted) = state.requests.update(id, make: make, change)
            state.dropped += evicted
            return record
        }
    }

    /// Changes stream `id`, made by `make` when absent.
    func updateStream(_ id: String, make: () -> StreamRecord?, _ change: (inout StreamRecord) -> Void)
        -> StreamRecord?
    {
        state.withLock { $0.streams.update(id, make: make, change).record }
    }

    /// Changes transfer `id`, made by `make` when absent; `nil` when it is absent and `make` gives none.
    func updateTransfer(
        _ id: String, make: () -> TransferRecord? = { nil }, _ change: (inout TransferRecord) -> Void
    ) -> TransferRecord? {
        state.withLock { $0.transfers.update(id, make: make, change).record }
    }

    /// Replaces the outbox's queue.
    func setOutbox(_ outbox: OutboxRecord) {
        state.withLock { $0.outbox = outbox }
    }

    /// Forgets every request, stream and transfer (the outbox's queue stays: it is still there).
    func clear() {
        state.withLock { state in
            state.requests.removeAll()
            state.streams.removeAll()
            state.transfers.removeAll()
            state.dropped = 0
        }
    }

    /// Everything held, oldest first.
    func snapshot() -> Snapshot {
        let now = clock.now()
        return state.withLock { state in
            Snapshot(
                now: now, maxRequests: maximumRequests, maxBodyBytes: maximumBodyBytes,
                dropped: state.dropped,
                requests: state.requests.all, streams: state.streams.all, transfers: state.transfers.all,
                outbox: state.outbox)
        }
    }

    /// The idempotency keys of requests not finished: an outbox item with one of them is being sent.
    func unfinishedIdempotencyKeys() -> Set<String> {
        state.withLock { state in
            var keys = Set<String>()
            for record in state.requests.all where record.end == nil {
                for attempt in record.attempts {
                    for field in attempt.requestHeaders where field.name.lowercased() == "idempotency-key" {
                        keys.insert(field.value)
                    }
                }
            }
            return keys
        }
    }
}
