import Foundation
import XCTest

@testable import NetworkLayer

/// What someone who can read the cache's directory learns about the credentials its entries were
/// stored for: nothing to test guesses against.
final class CacheSecrecyTests: XCTestCase {
    private var directory: URL!
    private let now = Date()
    private let basic = "Basic " + Data("alice:hunter2".utf8).base64EncodedString()
    private let apiKey = "493817"

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-secrecy-\(UUID())")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func url(_ path: String) -> URL { URL(string: "https://api.example.com/\(path)")! }

    /// Stores replies keyed by the credentials every way the cache keys them: the credentials' own
    /// partition, and a `Vary` on each credential header for a reply that isn't `private`.
    private func storeCredentialedReplies(in cache: ResponseCache) {
        let requests: [HeaderFields] = [["Authorization": basic], ["X-Api-Key": apiKey]]
        for (index, request) in requests.enumerated() {
            for (name, headers) in [
                ("private", ["Cache-Control": "private, max-age=600"]),
                ("varying", ["Cache-Control": "max-age=600", "Vary": "Authorization, X-Api-Key"]),
            ] {
                cache.store(
                    statusCode: 200, headers: headers, body: Data("reply".utf8),
                    for: .init(
                        url: url("\(name)/\(index)"),
                        headers: request), requestTime: now, responseTime: now)
            }
        }
        cache.store(
            statusCode: 200, headers: ["Cache-Control": "max-age=600"], body: Data("public".utf8),
            for: .init(url: url("public"), headers: [:]), requestTime: now, responseTime: now)
    }

    /// Every form of an unkeyed hash the cache could have written of the credentials: 64-bit FNV-1a
    /// and SHA-256 of the values, of `name NUL value`, as the credential fingerprint joined them.
    private var unkeyedHashes: [String] {
        var preimages: [String] = []
        for (name, value) in [("authorization", basic), ("x-api-key", apiKey)] {
            preimages += [value, "\(name)\u{0}\(value)", "\(name):\(value)"]
        }
        var hashes: [String] = []
        for preimage in preimages {
            hashes.append(Self.fnv1a(preimage))
            hashes.append(SHA256.hex(SHA256.hash(Array(preimage.utf8))))
        }
        return hashes
    }

    /// 64-bit FNV-1a in hex, the hash the cache's file names once used.
    private static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func files() throws -> [(name: String, contents: String)] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).map {
            ($0.lastPathComponent, String(decoding: try Data(contentsOf: $0), as: UTF8.self))
        }
    }

    /// Without the app's key, nothing keyed by a credential reaches the disk: no hash of it, and no
    /// entry that a later launch could find anyway.
    func testWithoutAnAppKeyNoCredentialKeyedEntryIsOnDisk() throws {
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        storeCredentialedReplies(in: cache)
        let files = try files()
        XCTAssertEqual(
            files.map(\.contents).filter { $0.contains("reply") }, [], "a credential's entry on disk")
        XCTAssertEqual(files.count, 1, "the public reply alone: \(files.map(\.name))")
        for hash in unkeyedHashes {
            for file in files {
                XCTAssertFalse(
                    file.name.contains(hash) || file.contents.contains(hash), "\(hash) in \(file.name)")
            }
        }
        XCTAssertNotNil(
            cache.entry(for: .init(url: url("private/0"), headers: ["Authorization": basic])),
            "kept in memory")
    }

    /// With the app's key, the entries are on disk and found again, under fingerprints keyed by it.
    func testWithAnAppKeyTheFilesHoldNoUnkeyedHashOfACredential() throws {
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let cache = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        storeCredentialedReplies(in: cache)
        let files = try files()
        XCTAssertEqual(files.count, 5)
        for hash in unkeyedHashes {
            for file in files {
                XCTAssertFalse(
                    file.name.contains(hash) || file.contents.contains(hash), "\(hash) in \(file.name)")
            }
        }
        for file in files {
            XCTAssertFalse(
                file.contents.contains(apiKey) || file.contents.contains(basic), "a value in clear")
        }
        let relaunched = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        XCTAssertNotNil(
            relaunched.entry(for: .init(url: url("private/0"), headers: ["Authorization": basic])))
        XCTAssertNotNil(relaunched.entry(for: .init(url: url("varying/1"), headers: ["X-Api-Key": apiKey])))
        XCTAssertNil(relaunched.entry(for: .init(url: url("varying/1"), headers: ["X-Api-Key": "000000"])))
        let otherKey = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory,
            fingerprintKey: Data("x".utf8))
        XCTAssertNil(otherKey.entry(for: .init(url: url("private/0"), headers: ["Authorization": basic])))
    }

    /// A URL is written in clear: one that carries a credential is never written.
    func testAURLCarryingACredentialIsNotWritten() throws {
        let cache = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory,
            fingerprintKey: Data("k".utf8))
        for path in ["items?api_key=493817", "items?accessToken=abc", "items?page=1"] {
            cache.store(
                statusCode: 200, headers: ["Cache-Control": "max-age=600"], body: Data("x".utf8),
                for: .init(
                    url: url(path),
                    headers: [:]), requestTime: now, responseTime: now)
        }
        let files = try files()
        XCTAssertEqual(files.count, 1)
        XCTAssertFalse(files.contains { $0.contents.contains("493817") || $0.contents.contains("abc") })
    }
}
