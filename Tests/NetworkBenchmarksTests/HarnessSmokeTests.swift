import Foundation
import XCTest

@testable import NetworkBenchmarks

/// Runs every workload once with tiny counts, so the harness cannot rot. It measures nothing and
/// asserts no time.
final class HarnessSmokeTests: XCTestCase {
    func testEveryWorkloadRunsOnBothClients() throws {
        let server = try BenchmarkServer.start()
        defer { server.stop() }
        let queue = DispatchQueue(label: "benchmark-smoke")
        let report = NetworkBenchmarks.measure(baseURL: server.baseURL, counts: .smoke, queue: queue)
        XCTAssertEqual(
            report.rows.count, 16 + 6 + 3 + 1 + 4,
            "every workload (the 64-in-flight one also against raw URLSession driven by a delegate; "
                + "the decoding ceiling) but "
                + "main-queue time (which needs the main queue), the cost per request (context "
                + "switches and CPU), and the transfers: speed and memory against raw downloadTask, "
                + "uploadTask(fromFile:) and httpBody; the three cache rows; cache then network's first "
                + "response; and the scheduler's four (on against off: throughput, context switches, CPU; "
                + "64 identical GETs)")
        let burst = try XCTUnwrap(report.rows.first { $0.measured == "shared" })
        XCTAssertEqual(burst.baseline, "not shared")
        let hit = try XCTUnwrap(report.rows.first { $0.measured == "cache hit" })
        XCTAssertEqual(hit.baseline, "network")
        let first = try XCTUnwrap(report.rows.first { $0.measured == "cache then network" })
        XCTAssertGreaterThan(first.layer, 0, "cache then network delivered a first response")
        let delegate = try XCTUnwrap(report.rows.first { $0.baseline == "raw URLSession, delegate" })
        XCTAssertGreaterThan(delegate.raw, 0, "raw URLSession driven by a delegate answered")
        let policies = try XCTUnwrap(report.rows.first { $0.measured == "policies on" })
        XCTAssertEqual(policies.baseline, "plain layer")
        XCTAssertTrue(report.table.contains("(policies on)"), report.table)
        // A test build has DEBUG, so the inspector serves and its row (and its plain layer's) is measured.
        let inspected = try XCTUnwrap(report.rows.first { $0.measured == "NetworkInspector, serving" })
        XCTAssertEqual(inspected.baseline, "plain layer")
        let ceiling = try XCTUnwrap(report.rows.first { $0.measured == "two threads" })
        XCTAssertEqual(ceiling.baseline, "one thread")
        XCTAssertEqual(report.rows.filter { $0.errors > 0 }.map(\.workload), [], "no request failed")
        for row in report.rows where row.unit.hasSuffix("/s") {
            XCTAssertGreaterThan(row.layer, 0, row.workload)
            XCTAssertGreaterThan(row.raw, 0, row.workload)
        }
        XCTAssertFalse(report.table.isEmpty)
        let json = try JSONEncoder().encode(report)
        XCTAssertEqual(try JSONDecoder().decode(Report.self, from: json).rows.count, report.rows.count)
    }

    /// A row whose requests fail says how many, so the run fails instead of printing a figure made from
    /// fewer requests (issue 49).
    func testARowCountsItsFailedRequests() throws {
        let server = try BenchmarkServer.start()
        let refusing = server.baseURL
        server.stop()
        let report = NetworkBenchmarks.measure(
            baseURL: refusing, counts: .smoke, queue: DispatchQueue(label: "benchmark-failures"),
            only: "GET ~1 KB JSON, sequential", transfers: false)
        let row = try XCTUnwrap(report.rows.first { $0.workload == "GET ~1 KB JSON, sequential" })
        // Two warm-up requests and one round of five, on each client.
        XCTAssertEqual(row.errors, 2 * (2 + Counts.smoke.smallSequential))
        XCTAssertTrue(report.table.contains("| \(row.errors) |"), report.table)
    }

    func testFixturesHaveTheAdvertisedSizes() {
        XCTAssertGreaterThan(Fixtures.small.count, 700)
        XCTAssertLessThan(Fixtures.small.count, 1_500)
        XCTAssertGreaterThan(Fixtures.large.count, 800_000)
        XCTAssertLessThan(Fixtures.large.count, 1_300_000)
    }
}
