import Foundation

extension Workloads {
    /// The request scheduler's rows (issue 34): what it costs requests that don't share (distinct small
    /// GETs at 64 in flight, on against off), and what sharing saves when 64 identical GETs start at once.
    func schedulerRows() -> [() -> [Row?]] {
        [
            {
                [
                    pair(
                        "GET ~1 KB JSON, 64 in flight, scheduler on vs off",
                        (layer, "small.json?n=#", "scheduler on"),
                        (unscheduled, "small.json?n=#", "scheduler off"), target: nil, inFlight: 64,
                        count: counts.smallConcurrent)
                ]
            },
            { processCost(of: layer, against: unscheduled, label: "scheduler on vs off", cpuTarget: 1.03) },
            { [identicalBurst()] },
        ]
    }

    /// 64 identical GETs started at once, shared (the default) and not: the wall time until the last
    /// handler ran, and how many requests reached the server.
    private func identicalBurst() -> Row? {
        let name = "64 identical GETs at once, shared vs not"
        guard selected(name) else { return nil }
        log(name)
        let sides = [layer, unscheduled]
        var times: [[Double]] = [[], []]
        var served: [[Int]] = [[], []]
        let burst = RequestCounter()
        for round in 0..<counts.rounds * 4 {
            for offset in 0..<2 {
                let index = (round + offset) % 2
                // A new URL each burst, the same for the 64 in it.
                let path = "small.json?burst=\(burst.next())"
                let before = serverRequests?() ?? 0
                guard
                    let (seconds, failed) = LoadRunner.run(
                        count: 64, inFlight: 64, on: queue,
                        start: { sides[index].get(path, as: [Record].self, completion: $0) })
                else {
                    failures.add(64)
                    continue
                }
                failures.add(failed)
                // Warm-up rounds aren't kept.
                guard round > 0 else { continue }
                times[index].append(seconds * 1000)
                served[index].append((serverRequests?() ?? before) - before)
            }
        }
        let (on, off) = (median(times[0]), median(times[1]))
        let requests = served.map {
            $0.isEmpty || serverRequests == nil ? "n/a" : "\(Int(median($0.map(Double.init))))"
        }
        return Row(
            workload: name, unit: "ms", layer: on, raw: off,
            comparison: on / max(off, .leastNonzeroMagnitude),
            target: "server requests: \(requests[0]) shared, \(requests[1]) not (report)", met: nil,
            layerRounds: times[0], rawRounds: times[1], measured: "shared", baseline: "not shared")
    }
}
