import Foundation

extension Workloads {
    /// What a `NetworkLogger` at `.requests`, writing to a sink that drops the text, costs on small
    /// sequential GETs: the logged layer, the plain layer and raw URLSession in the same rounds
    /// (A, B, C, A, B, C), judged logged / plain.
    func loggingOverhead() -> Row? {
        let name = "GET ~1 KB JSON, sequential, NetworkLogger(.requests) to a dropping sink"
        guard let logged, selected(name) else { return nil }
        log(name)
        let count = counts.smallSequential
        let start: Start = { $0.get("small.json", as: [Record].self, completion: $1) }
        let clients = [logged, layer, raw]
        for client in clients {
            _ = requestsPerSecond(client, count: min(count, 2), inFlight: 1, start)
        }
        var rounds: [[Double]] = [[], [], []]
        for _ in 0..<counts.rounds {
            for (index, client) in clients.enumerated() {
                rounds[index].append(requestsPerSecond(client, count: count, inFlight: 1, start))
            }
        }
        let (loggedRate, plainRate, rawRate) = (median(rounds[0]), median(rounds[1]), median(rounds[2]))
        let ratio = loggedRate / max(plainRate, .leastNonzeroMagnitude)
        return Row(
            workload: name, unit: "requests/s", layer: loggedRate, raw: rawRate, comparison: ratio,
            target: "logged / plain layer ≥ 0.95", met: ratio >= 0.95, layerRounds: rounds[0],
            rawRounds: rounds[2], plainLayer: plainRate, plainLayerRounds: rounds[1])
    }
}
