import Foundation

/// Why no entry of an archive answers a request, with the closest entries, so that the test's failure
/// says what to fix:
///
/// ```
/// HAR replay: no entry matches GET https://api.example.com/v1/todos?page=3
/// Closest entries:
///   #1 GET https://api.example.com/v1/todos?page=1 (other query)
///   #4 POST https://api.example.com/v1/todos?page=3 (other method)
/// ```
struct ReplayMiss: Error, Sendable {
    /// How many closest entries are listed at most.
    static let shownEntries = 5

    let message: String

    init(request: ReplayRequest, replay: HARReplay, recorded: [ReplayRequest]) {
        var lines = ["HAR replay: no entry matches \(request.description)"]
        guard !recorded.isEmpty else {
            message = lines[0] + " (the archive has no entries)"
            return
        }
        // Entries on the same path, the fewest differences first.
        let close = recorded.enumerated().map { index, entry in
            let differences = request.differences(
                from: entry, comparingHost: replay.matchesHost, comparingBody: replay.matchesBody)
            return (index, entry, differences)
        }.filter { !$0.2.contains(.path) }.sorted { ($0.2.count, $0.0) < ($1.2.count, $1.0) }
        if close.isEmpty {
            lines.append("No entry has the path \(request.url.path). Entries:")
            lines += recorded.prefix(Self.shownEntries).enumerated().map { "  #\($0 + 1) \($1.description)" }
            if recorded.count > Self.shownEntries {
                lines.append("  … and \(recorded.count - Self.shownEntries) more")
            }
        } else {
            lines.append("Closest entries:")
            lines += close.prefix(Self.shownEntries).map { index, entry, differences in
                "  #\(index + 1) \(entry.description) (\(Self.describe(differences)))"
            }
        }
        message = lines.joined(separator: "\n")
    }

    /// `other method, other query`, in a fixed order.
    private static func describe(_ differences: Set<ReplayRequest.Aspect>) -> String {
        ReplayRequest.Aspect.allCases.filter(differences.contains).map { "other \($0.rawValue)" }
            .joined(separator: ", ")
    }
}
