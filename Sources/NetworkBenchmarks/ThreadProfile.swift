import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Each thread's CPU time over a stretch of a run, from `/proc/self/task/*/stat`, to answer "is one
/// serial thread at 100%?" (`--alone … --threads`): a thread that runs all the time caps what the others
/// can do, whatever the cores left idle. A serial dispatch queue runs on dispatch's workers and may move
/// to another one whenever it runs dry, so it shows as one busy thread only while it never empties.
/// Linux only; elsewhere ``sample()`` is `nil`.
enum ThreadProfile {
    /// One thread's name (`comm`, at most 15 bytes, as `pthread_setname_np` set it) and CPU seconds so
    /// far, user space and kernel together.
    struct Reading: Equatable {
        let name: String
        let cpuSeconds: Double
    }

    /// Every live thread of the process by id, and the whole process's CPU seconds (threads that have
    /// exited included, so the total counts them).
    struct Sample {
        let threads: [Int: Reading]
        let processSeconds: Double
    }

    /// A `stat` line's name and CPU seconds: `comm` sits in parentheses and may hold spaces and
    /// parentheses itself, so the fields are counted from the last `)`; `utime` and `stime` are the 14th
    /// and 15th fields, in clock ticks.
    static func parse(stat line: String, ticksPerSecond: Double) -> Reading? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
        let name = String(line[line.index(after: open)..<close])
        // After `comm`: state (field 3), ..., utime (14), stime (15).
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return nil
        }
        return Reading(name: name, cpuSeconds: (user + system) / ticksPerSecond)
    }

    #if os(Linux)
        static func sample() -> Sample? {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            func read(_ path: String) -> Reading? {
                (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
                    parse(stat: $0, ticksPerSecond: ticks)
                }
            }
            guard let process = read("/proc/self/stat"),
                let ids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
            else { return nil }
            var threads: [Int: Reading] = [:]
            for id in ids.compactMap({ Int($0) }) {
                // A thread that exits between the listing and the read is left out.
                threads[id] = read("/proc/self/task/\(id)/stat")
            }
            return Sample(threads: threads, processSeconds: process.cpuSeconds)
        }
    #else
        static func sample() -> Sample? { nil }
    #endif

    /// The `top` threads that used the most CPU between `before` and `after`, each as a percentage of
    /// `seconds` of wall time (100% is one core all the time), then the whole process's. A thread born
    /// in between counts from zero; one that exited in between is in the total only.
    static func report(from before: Sample, to after: Sample, seconds: Double, top: Int = 8) -> [String] {
        let used = after.threads.map { id, thread in
            (id: id, name: thread.name, seconds: thread.cpuSeconds - (before.threads[id]?.cpuSeconds ?? 0))
        }
        .sorted { $0.seconds > $1.seconds }
        func percent(_ cpu: Double) -> String { String(format: "%5.1f%%", cpu / max(seconds, 1e-9) * 100) }
        var lines = ["CPU by thread over \(String(format: "%.2f", seconds)) s (100% = one core):"]
        for thread in used.prefix(top) {
            lines.append("  \(percent(thread.seconds))  \(thread.name) (\(thread.id))")
        }
        let total = after.processSeconds - before.processSeconds
        lines.append("  \(percent(total))  total, \(after.threads.count) threads")
        return lines
    }
}
