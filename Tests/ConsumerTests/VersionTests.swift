import Foundation
import NetworkLayer
import XCTest

/// `NetworkLayer.version` names the release the code is part of: the CHANGELOG's newest version heading
/// (`## 1.0.0-rc.1 — 2026-11-29`), or, while changes wait under `## Unreleased`, the next version, greater
/// than the newest heading. So it holds on both sides of a release commit, which renames `## Unreleased`.
final class VersionTests: XCTestCase {
    private static func changelog() throws -> String {
        try String(
            contentsOf: DocumentationFiles.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8
        )
    }

    func testTheVersionIsTheChangelogsNewestHeadingOrTheNextVersion() throws {
        XCTAssertNil(ChangelogVersion.problem(version: NetworkLayer.version, changelog: try Self.changelog()))
    }

    func testTheVersionStillMatchesOnceTheReleaseCommitNamesTheUnreleasedSection() throws {
        let changelog = try Self.changelog()
        let released = changelog.replacingOccurrences(
            of: "## Unreleased", with: "## \(NetworkLayer.version) — 2026-11-29")
        guard released != changelog else { throw XCTSkip("the CHANGELOG has no Unreleased section") }
        XCTAssertNil(ChangelogVersion.problem(version: NetworkLayer.version, changelog: released))
    }

    func testTheRuleSeesAVersionTheChangelogDoesNotName() {
        let unreleased = "# Changelog\n\n## Unreleased\n\n### Added\n- x\n\n## 1.0.0-rc.1 — 2026-11-29\n"
        let released =
            "# Changelog\n\n## 1.0.0 — 2026-12-20\n\n### Fixed\n- y\n\n## 1.0.0-rc.1 — 2026-11-29\n"
        for (version, changelog) in [
            ("1.0.0-rc.2", unreleased), ("1.0.0", unreleased), ("1.1.0", unreleased), ("1.0.0", released),
            ("1.0.0-rc.1", "## Unreleased\n"),
        ] {
            XCTAssertNil(ChangelogVersion.problem(version: version, changelog: changelog), version)
        }
        for (version, changelog) in [
            ("1.0.0-rc.1", unreleased),  // not greater than the last release: forgot to bump it
            ("1.0.0-rc.0", unreleased), ("1.0.0-rc.10", released), ("1.0.1", released),
            ("1.0", unreleased), ("v1.0.1", unreleased), ("1.0.01", unreleased), ("1.0.0-", unreleased),
            ("1.0.0", "# Changelog\n\n## 1.0.0 (2026-12-20)\n"),  // a heading not in the release form
            ("1.0.0", "# Changelog\n"),
        ] {
            XCTAssertNotNil(ChangelogVersion.problem(version: version, changelog: changelog), version)
        }
    }

    func testSemanticVersionsCompareAsSemVerSays() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0", "1.0.1",
            "1.2.0", "1.10.0", "2.0.0",
        ]
        let versions = try ordered.map { try XCTUnwrap(SemanticVersion($0), $0) }
        for (lower, higher) in zip(versions, versions.dropFirst()) {
            XCTAssertLessThan(lower, higher)
        }
    }
}

/// The CHANGELOG's rule for the version constant.
enum ChangelogVersion {
    /// Why `version` doesn't fit `changelog`, or `nil` when it does.
    static func problem(version: String, changelog: String) -> String? {
        guard let current = SemanticVersion(version) else { return "\(version) is not a semantic version" }
        let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3) }
        guard let first = headings.first else { return "the CHANGELOG has no `## ` heading" }
        if first == "Unreleased" {
            guard let newest = headings.dropFirst().first else { return nil }
            guard let released = released(newest) else {
                return "`## \(newest)` is not `## X.Y.Z — YYYY-MM-DD`"
            }
            return current > released ? nil : "\(version) is not greater than the newest release, \(newest)"
        }
        guard let released = released(first) else { return "`## \(first)` is not `## X.Y.Z — YYYY-MM-DD`" }
        return released == current ? nil : "\(version) is not the newest release, \(first)"
    }

    /// The version of a release heading, `1.0.0-rc.1 — 2026-11-29`.
    private static func released(_ heading: Substring) -> SemanticVersion? {
        let parts = heading.components(separatedBy: " — ")
        let date = parts.last?.split(separator: "-").map(String.init) ?? []
        guard parts.count == 2, date.map(\.count) == [4, 2, 2], date.allSatisfy({ Int($0) != nil }) else {
            return nil
        }
        return SemanticVersion(parts[0])
    }
}

/// A version as Semantic Versioning 2.0.0 writes and orders it (build metadata aside).
struct SemanticVersion: Comparable {
    let core: [Int]
    let prerelease: [String]

    init?(_ text: String) {
        let withoutBuild = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let pieces = withoutBuild.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let core = pieces[0].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let prerelease =
            pieces.count == 2 ? pieces[1].split(separator: ".", omittingEmptySubsequences: false) : []
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-")
        guard core.count == 3, core.allSatisfy(Self.isNumber),
            prerelease.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed.contains) }),
            prerelease.allSatisfy({ !$0.allSatisfy(\.isNumber) || Self.isNumber(String($0)) })
        else { return nil }
        self.core = core.compactMap { Int($0) }
        self.prerelease = prerelease.map(String.init)
    }

    /// Digits without a leading zero.
    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
            && (text == "0" || !text.hasPrefix("0"))
    }

    /// A numeric identifier's value; `nil` for an alphanumeric one (`rc`, `x-1`).
    private static func number(_ identifier: String) -> Int? {
        identifier.allSatisfy(\.isNumber) ? Int(identifier) : nil
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.core != rhs.core { return lhs.core.lexicographicallyPrecedes(rhs.core) }
        // A pre-release comes before its release.
        if lhs.prerelease.isEmpty || rhs.prerelease.isEmpty {
            return !lhs.prerelease.isEmpty && rhs.prerelease.isEmpty
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            switch (Self.number(left), Self.number(right)) {
            case (let left?, let right?): return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left < right
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }
}
