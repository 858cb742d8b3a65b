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

    #if os(Linux)
        /// The main thread, captured at start-up so another thread can read its CPU clock.
        nonisolated(unsafe) static var mainThread: pthread_t = pthread_self()

        /// CPU seconds the main thread has used; the main queue runs there under `RunLoop.main.run()`.
        static func mainThreadCPUSeconds() -> Double? {
            var clock = clockid_t()
            guard pthread_getcpuclockid(mainThread, &clock) == 0 else { return nil }
            var time = timespec()
            guard clock_gettime(clock, &time) == 0 else { return nil }
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    #else
        static func mainThreadCPUSeconds() -> Double? { nil }
    #endif
}
