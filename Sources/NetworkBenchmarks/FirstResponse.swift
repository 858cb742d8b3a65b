import Foundation

/// Time to the first response of a screen that shows what it had: cache then network's stored reply,
/// against the plain layer's network round trip, in the same rounds. A report row, with no target.
extension Workloads {
    func firstResponse() -> Row? {
        let name = "GET ~1 KB JSON, time to first response, cache then network vs network round trip"
        guard selected(name), let cached = cached as? LayerClient, let plain = layer as? LayerClient else {
            return nil
        }
        log(name)
        // Each call's network phase ends before the next call starts: only the first response is timed.
        let sides: [(@escaping () -> Void, @escaping (Bool) -> Void) -> Void] = [
            { first, done in cached.getCacheThenNetwork("fresh.json", first: first, done: done) },
            { first, done in
                plain.get("fresh.json", as: [Record].self) {
                    first()
                    done($0)
                }
            },
        ]
        // Stores the reply the cache then serves, and warms both paths.
        for side in sides { _ = microsecondsToFirstResponse(count: 2, side) }
        var rounds: [[Double]] = [[], []]
        for round in 0..<counts.rounds {
            for offset in 0..<2 {
                let index = (round + offset) % 2
                rounds[index].append(
                    microsecondsToFirstResponse(count: max(1, counts.smallSequential / 10), sides[index]))
            }
        }
        let (first, roundTrip) = (median(rounds[0]), median(rounds[1]))
        return Row(
            workload: name, unit: "µs", layer: first, raw: roundTrip, comparison: first - roundTrip,
            target: "none", met: nil, layerRounds: rounds[0], rawRounds: rounds[1],
            measured: "cache then network", baseline: "network round trip")
    }

    /// The median time from starting a call to its first response, over `count` calls one after another.
    private func microsecondsToFirstResponse(
        count: Int, _ call: (@escaping () -> Void, @escaping (Bool) -> Void) -> Void
    ) -> Double {
        var samples: [Double] = []
        for _ in 0..<count {
            let (firstArrived, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let began = DispatchTime.now()
            var firstAt = began
            call(
                {
                    firstAt = DispatchTime.now()
                    firstArrived.signal()
                },
                { [failures] ok in
                    if !ok { failures.add(1) }
                    finished.signal()
                })
            guard firstArrived.wait(timeout: .now() + 60) == .success,
                finished.wait(timeout: .now() + 60) == .success
            else {
                log("  timed out")
                failures.add(count - samples.count)
                break
            }
            samples.append(Double(firstAt.uptimeNanoseconds - began.uptimeNanoseconds) / 1e3)
        }
        return median(samples)
    }
}
