import Foundation

/// Runs ``MemorySoak``'s processes, interleaved by round, and prints their table.
enum SoakDriver {
    private struct Outcome {
        let slope: Double
        let load: String
    }

    /// `together`: a round's processes run at the same time, one per client (on a machine too busy for
    /// them one after another; memory is counted in bytes, which sharing the CPU changes little).
    static func run(baseURL: URL, count: Int, processes: Int, clients: [String], together: Bool) -> Bool {
        guard clients.allSatisfy(MemorySoak.clientNames.contains) else {
            say("Unknown client in \(clients); known: \(MemorySoak.clientNames.joined(separator: ", "))")
            return false
        }
        say("Memory soak: \(count) GETs to distinct URLs at 64 in flight, \(processes) processes per client")
        var outcomes: [String: [Outcome]] = [:]
        var failed = false
        for round in 1...processes {
            var running: [(name: String, load: String, child: Child)] = []
            for name in clients {
                let load =
                    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
                    .split(separator: " ").first.map(String.init) ?? "?"
                guard let child = Child(name, baseURL: baseURL, count: count) else { return false }
                running.append((name, load, child))
                if !together, !record(running.removeLast(), round: round, into: &outcomes) { failed = true }
            }
            for item in running where !record(item, round: round, into: &outcomes) { failed = true }
        }
        printTable(outcomes, clients: clients)
        if failed { say("\nFAILED: some requests failed (see each process's failures=)") }
        return !failed
    }

    private static func printTable(_ outcomes: [String: [Outcome]], clients: [String]) {
        say(
            "\n| client | slope over the second half, bytes/request (each process, load average) "
                + "| median (range) | − raw, same round: median (range) |")
        say("|---|---|---|---|")
        let raw = outcomes["raw"]?.map(\.slope)
        for name in clients {
            let slopes = outcomes[name]?.map(\.slope) ?? []
            let each = (outcomes[name] ?? []).map { "\(String(format: "%.0f", $0.slope)) (\($0.load))" }
            var difference = ""
            if let raw, name != "raw" {
                let deltas = zip(slopes, raw).map { $0 - $1 }
                difference =
                    "\(format(median(deltas))) (\(format(deltas.min() ?? 0)) to \(format(deltas.max() ?? 0)))"
            }
            let range = "\(format(slopes.min() ?? 0))–\(format(slopes.max() ?? 0))"
            say(
                "| \(name) | \(each.joined(separator: ", ")) | \(format(median(slopes))) (\(range)) "
                    + "| \(difference) |")
        }
    }

    private static func format(_ value: Double) -> String { String(format: "%+.0f", value) }

    /// Waits for `item`'s process and keeps its slope; `false` when it failed or any of its requests did
    /// (its slope is still kept and printed, and the other processes still run).
    private static func record(
        _ item: (name: String, load: String, child: Child), round: Int,
        into outcomes: inout [String: [Outcome]]
    ) -> Bool {
        guard let line = item.child.line(), let slope = field("slope", in: line) else { return false }
        say("round \(round) \(item.name) (load average \(item.load)): \(line)")
        outcomes[item.name, default: []].append(Outcome(slope: slope, load: item.load))
        return field("failures", in: line) == 0
    }

    private static func field(_ name: String, in line: String) -> Double? {
        line.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap {
            Double($0.dropFirst(name.count + 1))
        }
    }

    /// One `--soak-case` process.
    private final class Child {
        private let process = Process()
        private let output = Pipe()
        private let name: String

        init?(_ name: String, baseURL: URL, count: Int) {
            self.name = name
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [
                "--soak-case", name, "--base-url", baseURL.absoluteString, "--count", String(count),
            ]
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                say("Could not run the soak of \(name): \(error)")
                return nil
            }
        }

        /// Its `soak …` line once it has exited (with `failures=` above 0 when some requests failed); `nil`
        /// when it printed none.
        func line() -> String? {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix("soak ") }).map(String.init)
            guard let line, line.contains(" slope=") else {
                say("The soak of \(name) failed: \(text)")
                return nil
            }
            return line
        }
    }
}
