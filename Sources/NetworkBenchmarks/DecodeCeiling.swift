import Foundation

extension Workloads {
    static let ceilingName = "decoding ~1 MB JSON, no network, two threads vs one"
    static let largeAt64 = "GET ~1 MB JSON, 64 in flight"
    /// The row that says how much of the ceiling the 1 MB row reached; asking for it runs both.
    static let ceilingShare = "GET ~1 MB JSON, 64 in flight, against the two-decoder ceiling"
    static let ceilingShareSources = [largeAt64, ceilingName]

    /// How far parallel decoding can go on this machine, without the network: `JSONDecoder` decoding the
    /// ~1 MB reply on two threads at once (a decoder each) against one thread. Raw URLSession decodes
    /// its replies one at a time on its delegate queue and the layer decodes two at once, so this is the
    /// most the "~1 MB JSON, 64 in flight" ratio can reach here, before the network's own work.
    func decodeCeiling() -> Row? {
        let name = Self.ceilingName
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

extension Workloads {
    /// `rows` with the share of the two-decoder ceiling that the 1 MB row reached, after the ceiling's row,
    /// when the run measured both: the layer's ratio to raw URLSession over two decoders' ratio to one
    /// (the "1.68 = 0.89 of the two-decoder ceiling (1.89)"). Raw URLSession decodes one reply at
    /// a time and the layer two, so this is how much of what parallel decoding can give here the layer
    /// turned into requests. Each round's two ratios are kept; the figure is the quotient of the rows'.
    static func withCeilingShare(_ rows: [Row]) -> [Row] {
        guard let get = rows.first(where: { $0.workload == largeAt64 }),
            let index = rows.firstIndex(where: { $0.workload == ceilingName })
        else { return rows }
        let ceiling = rows[index]
        func ratios(_ row: Row) -> [Double] {
            zip(row.layerRounds, row.rawRounds).map { $0 / max($1, .leastNonzeroMagnitude) }
        }
        let share = get.comparison / max(ceiling.comparison, .leastNonzeroMagnitude)
        let row = Row(
            workload: ceilingShare, unit: "×", layer: get.comparison, raw: ceiling.comparison,
            comparison: share, target: "ratio ≥ 0.95", met: share >= 0.95, layerRounds: ratios(get),
            rawRounds: ratios(ceiling), measured: "NetworkLayer / raw URLSession",
            baseline: "two decoders / one",
            errors: get.errors + ceiling.errors)
        var result = rows
        result.insert(row, at: index + 1)
        return result
    }
}
