import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Readings of this process that the benchmark compares before and after a workload.
enum ProcessStats {
    /// Resident memory in bytes, from `/proc/self/statm`; `nil` where there is no `/proc`.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A field of `/proc/self/status` given in kB (`VmRSS`, `VmHWM`: resident memory now and at its
    /// highest), in bytes; `nil` where there is no `/proc`.
    static func memoryStatus(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }

    /// CPU time one thread has used, split into user space (the code that ran) and the kernel (mostly
    /// the cost of waking the thread up).
    struct ThreadCPU: Sendable {
        var user: Double
        var system: Double
    }

    #if os(Linux)
        /// CPU seconds the main thread has used; the main queue runs there under `RunLoop.main.run()`.
        /// Read on the main queue itself, so call it from another thread.
        static func mainThreadCPU() -> ThreadCPU? {
            DispatchQueue.main.sync {
                var usage = rusage()
                // RUSAGE_THREAD (1), a GNU extension the Glibc module does not export.
                guard getrusage(__rusage_who_t(1), &usage) == 0 else { return nil }
                func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
                return ThreadCPU(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
            }
        }
    #else
        static func mainThreadCPU() -> ThreadCPU? { nil }
    #endif

    /// Context switches and CPU seconds of the whole process, every thread counted (libcurl's, the
    /// delegate queue's, dispatch's workers and the main thread).
    struct ProcessCost: Sendable {
        var contextSwitches: Double
        var cpuSeconds: Double
    }

    /// The process's context switches (voluntary and involuntary) and CPU time so far.
    static func processCost() -> ProcessCost? {
        var usage = rusage()
        #if canImport(Glibc)
            guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        #else
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessCost(
            contextSwitches: Double(usage.ru_nvcsw + usage.ru_nivcsw),
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
