import Foundation

/// The table printed at the end of a run, and the JSON written with `--json`.
struct Report: Codable, Sendable {
    let date: String
    let machine: String
    let server: String
    let rounds: Int
    let rows: [Row]

    var table: String {
        var lines = [
            "| workload | NetworkLayer | raw URLSession | comparison | target | met | errors |",
            "|---|---|---|---|---|---|---|",
        ]
        // A row comparing other clients names them in its cells, e.g. "1090 requests/s (policies on)".
        func named(_ client: String?) -> String { client.map { " (\($0))" } ?? "" }
        for row in rows {
            let comparison =
                row.unit.hasSuffix("/s") || row.target.hasPrefix("ratio")
                ? String(format: "%.2f×", row.comparison) : String(format: "%+.1f", row.comparison)
            let met = row.met.map { $0 ? "yes" : "NO" } ?? "–"
            lines.append(
                "| \(row.workload) | \(Self.format(row.layer, row.unit)) \(row.unit)\(named(row.measured)) | \(Self.format(row.raw, row.unit)) \(row.unit)\(named(row.baseline)) | \(comparison) | \(row.target) | \(met) | \(row.errors) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// A ratio (unit `×`) keeps two decimals, as the comparison column does.
    private static func format(_ value: Double, _ unit: String) -> String {
        unit == "×"
            ? String(format: "%.2f", value)
            : abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    static func machineDescription() -> String {
        let info = ProcessInfo.processInfo
        let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
        return "\(info.activeProcessorCount) cores\(model.map { ", \($0)" } ?? ""), "
            + "\(info.physicalMemory / 1_073_741_824) GiB, \(info.operatingSystemVersionString)"
    }
}
