import NetworkLayer

/// A finished request's phases on the waterfall, in order, each starting where the one before ended:
/// queued (budget and rate limit), waiting on policies, on the wire (first attempt to last reply),
/// decoding, delivered. A phase of no length is left out.
struct PhaseTimeline {
    let phases: [RequestRecord.Phase]

    init(record: RequestRecord, metrics: RequestMetrics) {
        let end = record.end ?? record.start
        var phases: [RequestRecord.Phase] = []
        phases.reserveCapacity(5)
        var cursor = record.start
        func add(_ name: String, until limit: Double) {
            let until = min(max(limit, cursor), end)
            if until > cursor { phases.append(.init(name: name, start: cursor, end: until)) }
            cursor = until
        }
        add("queued", until: cursor + record.queuedBudget + record.queuedRateLimit)
        add("policies", until: cursor + record.waitingOnPolicies)
        // Without the layer's decode and delivery times, the wire ends at the last reply's event and the
        // rest is delivery.
        let measured = metrics.decodeDuration + metrics.deliveryDuration > 0
        let decoded = measured ? end - metrics.deliveryDuration * 1_000 : cursor
        let replied = measured ? decoded - metrics.decodeDuration * 1_000 : record.attempts.last?.end ?? end
        // Attempt times were read when their events arrived: the wire starts no earlier than the waits.
        // Under load the monitors' queue may read the first attempt's start after the reply it led to;
        // the wire then starts where the waits end, rather than leave the request without a bar.
        if let first = record.attempts.first {
            if first.start < replied { cursor = min(max(cursor, first.start), end) }
            add("wire", until: replied)
        }
        add("decoding", until: decoded)
        add("delivered", until: end)
        self.phases = phases
    }
}
