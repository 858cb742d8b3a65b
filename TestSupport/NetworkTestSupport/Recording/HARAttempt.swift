import Foundation
import NetworkLayer

/// What ``HARRecorder`` knows of one attempt until its request finishes: the redacted request, when it
/// started and the redacted response, each stamped with the recorder's clock as the events arrive.
struct HARAttempt: Sendable {
    var request: HARArchive.Request
    var startDate: Date?
    var startUptime: UInt64?
    var response: HARArchive.Response?
    var responseUptime: UInt64?

    init(request: HARArchive.Request) {
        self.request = request
    }

    /// Milliseconds between the attempt's start and its response, by the events' arrival; 0 if unknown.
    var observedMilliseconds: Double {
        guard let startUptime, let responseUptime, responseUptime >= startUptime else { return 0 }
        return Double(responseUptime - startUptime) / 1e6
    }

    /// The entries of a finished request: one per attempt that got a response, in order.
    ///
    /// The layer's metrics time the request as a whole and its last attempt's first byte, so a request
    /// sent once gets exact timings (`wait` until the first byte, `receive` for the rest); each attempt of
    /// a retried request is timed by when its events arrived, its last attempt's `wait` by the metrics.
    static func entries(of attempts: [Int: HARAttempt], metrics: RequestMetrics) -> [HARArchive.Entry] {
        let last = attempts.keys.max()
        return attempts.sorted { $0.key < $1.key }.compactMap { number, attempt in
            guard let response = attempt.response else { return nil }
            let observed = attempt.observedMilliseconds
            let timings: HARArchive.Timings
            let started: Date
            if attempts.count == 1 {
                let wait = metrics.timeToFirstByte.map { $0 * 1_000 } ?? observed
                timings = HARArchive.Timings(wait: wait, receive: max(0, metrics.duration * 1_000 - wait))
                started = metrics.startDate
            } else if number == last {
                let wait = metrics.timeToFirstByte.map { $0 * 1_000 } ?? observed
                timings = HARArchive.Timings(wait: wait, receive: max(0, observed - wait))
                started = attempt.startDate ?? metrics.startDate
            } else {
                timings = HARArchive.Timings(wait: observed)
                started = attempt.startDate ?? metrics.startDate
            }
            return HARArchive.Entry(
                startedDateTime: started, request: attempt.request, response: response, timings: timings)
        }
    }
}
