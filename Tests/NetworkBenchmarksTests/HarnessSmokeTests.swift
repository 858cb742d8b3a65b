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
            report.rows.count, 16 + 3 + 1 + 6 + 3 + 1 + 4,
            "every workload (the 64-in-flight one also against raw URLSession driven by a delegate; "
                + "the three against raw URLSession decoding concurrently; the decoding ceiling, and the "
                + "1 MB row's share of it) but "
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
        let concurrent = report.rows.filter { $0.baseline == "raw URLSession, decoding concurrently" }
        let beside = ["GET ~1 KB JSON, 64 in flight", "GET ~1 MB JSON, 8 in flight", Workloads.largeAt64]
        XCTAssertEqual(
            concurrent.map(\.workload), beside.map { $0 + ", vs raw URLSession decoding concurrently" })
        XCTAssertEqual(concurrent.last?.target, "ratio ≥ 1.0")
        let share = try XCTUnwrap(report.rows.first { $0.workload == Workloads.ceilingShare })
        XCTAssertEqual(share.baseline, "two decoders / one")
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

    /// Asking for the 1 MB row's share of the two-decoder ceiling runs both rows it comes from, in the
    /// same run, and divides their ratios (issue 49: "0.95 of the two-decoder ceiling measured in the
    /// same run").
    func testTheCeilingShareRunsBothOfItsRows() throws {
        let server = try BenchmarkServer.start()
        defer { server.stop() }
        let report = NetworkBenchmarks.measure(
            baseURL: server.baseURL, counts: .smoke, queue: DispatchQueue(label: "benchmark-ceiling"),
            only: "two-decoder ceiling", transfers: false)
        XCTAssertEqual(
            report.rows.map(\.workload), [Workloads.largeAt64, Workloads.ceilingName, Workloads.ceilingShare])
        guard report.rows.count == 3 else { return }
        let (get, ceiling, share) = (report.rows[0], report.rows[1], report.rows[2])
        XCTAssertEqual(share.layer, get.comparison)
        XCTAssertEqual(share.raw, ceiling.comparison)
        XCTAssertEqual(share.comparison, get.comparison / ceiling.comparison, accuracy: 1e-9)
        XCTAssertEqual(share.errors, 0)
    }

    /// The share is the layer's ratio over the ceiling's (the 1.68 against 1.89 is 0.89), placed
    /// after the ceiling; without both rows there is none.
    func testTheCeilingShareDividesTheRatios() {
        func row(_ name: String, _ measured: [Double], _ baseline: [Double]) -> Row {
            let ratio = median(measured) / median(baseline)
            return Row(
                workload: name, unit: "/s", layer: median(measured), raw: median(baseline), comparison: ratio,
                target: "none", met: nil, layerRounds: measured, rawRounds: baseline, errors: 1)
        }
        let get = row(Workloads.largeAt64, [84, 168], [50, 100])
        let ceiling = row(Workloads.ceilingName, [94.5, 189], [50, 100])
        let other = row("other", [1], [1])
        let rows = Workloads.withCeilingShare([get, other, ceiling, other])
        XCTAssertEqual(rows.map(\.workload)[2...3], [Workloads.ceilingName, Workloads.ceilingShare])
        let share = rows[3]
        XCTAssertEqual(share.comparison, 1.68 / 1.89, accuracy: 1e-9)
        XCTAssertEqual(share.layerRounds, [1.68, 1.68])
        XCTAssertEqual(share.rawRounds, [1.89, 1.89])
        XCTAssertEqual(share.met, false)
        XCTAssertEqual(share.errors, 2, "the failures of the rows it comes from")
        XCTAssertTrue(
            Report(date: "", machine: "", server: "", rounds: 2, rows: [share]).table.contains(
                "| 1.68 × (NetworkLayer / raw URLSession) | 1.89 × (two decoders / one) | 0.89× | ratio ≥ 0.95 | NO |"
            ))
        XCTAssertEqual(Workloads.withCeilingShare([get, other]).count, 2)
    }

    func testFixturesHaveTheAdvertisedSizes() {
        XCTAssertGreaterThan(Fixtures.small.count, 700)
        XCTAssertLessThan(Fixtures.small.count, 1_500)
        XCTAssertGreaterThan(Fixtures.large.count, 800_000)
        XCTAssertLessThan(Fixtures.large.count, 1_300_000)
    }
}
