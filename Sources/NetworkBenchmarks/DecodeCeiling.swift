import Foundation

extension Workloads {
    /// How far parallel decoding can go on this machine, without the network: `JSONDecoder` decoding the
    /// ~1 MB reply on two threads at once (a decoder each) against one thread. Raw URLSession decodes
    /// its replies one at a time on its delegate queue and the layer decodes two at once, so this is the
    /// most the "~1 MB JSON, 64 in flight" ratio can reach here, before the network's own work.
    func decodeCeiling() -> Row? {
        let name = "decoding ~1 MB JSON, no network, two threads vs one"
        guard selected(name) else { return nil }
        log(name)
        let body = Fixtures.large
        let count = max(2, counts.largeAt64)
        func decodesPerSecond(threads: Int) -> Double {
            let started = DispatchTime.now()
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                let decoder = JSONDecoder()
                for _ in 0..<count / threads { _ = try? decoder.decode([Record].self, from: body) }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            return Double(count / threads * threads) / seconds
        }
        _ = decodesPerSecond(threads: 2)
        var two: [Double] = []
        var one: [Double] = []
        for round in 0..<counts.rounds {
            // The order alternates, as the other rows' clients do.
            if round.isMultiple(of: 2) {
                two.append(decodesPerSecond(threads: 2))
                one.append(decodesPerSecond(threads: 1))
            } else {
                one.append(decodesPerSecond(threads: 1))
                two.append(decodesPerSecond(threads: 2))
            }
        }
        let ratio = median(two) / max(median(one), .leastNonzeroMagnitude)
        return Row(
            workload: name, unit: "decodes/s", layer: median(two), raw: median(one), comparison: ratio,
            target: "none", met: nil, layerRounds: two, rawRounds: one, measured: "two threads",
            baseline: "one thread")
    }
}
