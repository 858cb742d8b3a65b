import Foundation
import XCTest

@testable import NetworkBenchmarks

#if canImport(Glibc)
    import Glibc
#endif

/// `--alone … --threads`: each thread's CPU time from `/proc/self/task/*/stat` (issue 49: "is one serial
/// thread at 100%?").
final class ThreadProfileTests: XCTestCase {
    /// `comm` may hold spaces and parentheses, so the fields after it are counted from the last `)`.
    func testAStatLineGivesTheNameAndTheCPUTime() {
        let line =
            "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 1000 1000000 200 18446744073709551615"
        XCTAssertEqual(
            ThreadProfile.parse(stat: line, ticksPerSecond: 100),
            ThreadProfile.Reading(name: "a (b) c", cpuSeconds: 3.0))
        XCTAssertNil(ThreadProfile.parse(stat: "4242 (short) S 1 2", ticksPerSecond: 100))
    }

    #if os(Linux)
        /// A thread that spins for a known amount of its own CPU time heads the report, by its name.
        func testTheBusiestThreadHeadsTheReport() throws {
            let before = try XCTUnwrap(ThreadProfile.sample())
            let began = DispatchTime.now()
            let done = expectation(description: "the spinning thread used its CPU time")
            // The thread stays until the second sample, which reads only live threads.
            let sampled = DispatchSemaphore(value: 0)
            let spinner = Thread {
                // Foundation's `Thread.name` leaves the kernel's name (`comm`) alone here.
                try? "profile-spin".write(
                    toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                // CPU time, not wall time: on a loaded machine the thread may wait for a core.
                var now = timespec()
                repeat {
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                } while now.tv_sec < 1 && now.tv_nsec < 300_000_000
                done.fulfill()
                sampled.wait()
            }
            spinner.start()
            wait(for: [done], timeout: 60)
            let after = try XCTUnwrap(ThreadProfile.sample())
            sampled.signal()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
            let lines = ThreadProfile.report(from: before, to: after, seconds: seconds, top: 3)
            XCTAssertEqual(lines.count, 1 + 3 + 1, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[1].contains("profile-spin ("), lines.joined(separator: "\n"))
            XCTAssertTrue(lines.last?.contains("total") == true)
        }
    #endif
}
