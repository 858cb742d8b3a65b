import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// What the echo handler saw of a request, sent back as JSON: the body is summed up on the server's
/// side, so a 20 MB body is compared without sending it back.
struct Echo: Codable, Equatable, Sendable {
    var method: String
    /// The request target exactly as sent: percent-encoded path and query.
    var target: String
    /// Header fields, names lowercased.
    var headers: [String: String]
    var bodyLength: Int
    var bodyChecksum: String

    init(_ request: MockServerRequest) {
        method = request.method
        target = request.target
        headers = Dictionary(
            request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        bodyLength = request.body.count
        bodyChecksum = Checksum.of(request.body)
    }
}

extension MockServer {
    /// A started server answering every request with its ``Echo``; stopped when the test ends.
    static func echoing(
        maxRequestBodySize: Int = 16 * 1024 * 1024, in test: XCTestCase
    ) throws -> MockServer {
        try started(maxRequestBodySize: maxRequestBodySize, in: test) { request in
            try .json(Echo(request))
        }
    }

    /// A started server whose first reply redirects (`status`) to `/elsewhere` on `target`, another
    /// origin (another port of 127.0.0.1); stopped when the test ends.
    static func redirecting(
        with status: Int = 302, to target: MockServer, in test: XCTestCase
    ) throws -> MockServer {
        let origin = try started(in: test)
        origin.enqueue(
            MockResponse(
                status: status, headers: ["Location": try XCTUnwrap(target.url("/elsewhere")).absoluteString])
        )
        return origin
    }

    /// A started server, stopped when the test ends.
    static func started(
        maxRequestBodySize: Int = 16 * 1024 * 1024, in test: XCTestCase, handler: Handler? = nil
    ) throws -> MockServer {
        let server = MockServer(maxRequestBodySize: maxRequestBodySize, handler: handler)
        try server.start()
        test.addTeardownBlock { server.stop() }
        return server
    }
}

/// A fast 64-bit checksum (FNV-1a over 8-byte words, then the tail bytes): not cryptographic, but any
/// lost, added, reordered or changed byte changes it.
enum Checksum {
    static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x100_0000_01b3
        data.withUnsafeBytes { bytes in
            let words = bytes.count / 8
            for index in 0..<words {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* prime
            }
            for index in (words * 8)..<bytes.count {
                hash = (hash ^ UInt64(bytes[index])) &* prime
            }
        }
        return "\(data.count):" + String(hash, radix: 16)
    }
}

enum TestData {
    /// `count` pseudo-random bytes, the same for the same `seed`.
    static func bytes(_ count: Int, seed: UInt64 = 0x9e37_79b9_7f4a_7c15) -> Data {
        var data = Data(count: count)
        var state = seed
        data.withUnsafeMutableBytes { bytes in
            func next() -> UInt64 {
                // xorshift64
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return state
            }
            let words = bytes.count / 8
            for index in 0..<words {
                bytes.storeBytes(of: next(), toByteOffset: index * 8, as: UInt64.self)
            }
            let tail = next()
            for index in (words * 8)..<bytes.count {
                bytes[index] = UInt8(truncatingIfNeeded: tail >> (8 * UInt64(index % 8)))
            }
        }
        return data
    }

    /// The encoder the tests give their layers: sorted keys make the expected bytes of a JSON body stable.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
