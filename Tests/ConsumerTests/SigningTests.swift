import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The README's signing interceptor: its digest against published test vectors, and a server that
/// checks the signature of what it received.
final class SigningTests: XCTestCase {
    func testSHA256KnownAnswers() {
        // FIPS 180-2 appendix B, and lengths around the padding boundaries (from Python's hashlib).
        let vectors: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 55),
                "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"
            ),
            (
                String(repeating: "a", count: 56),
                "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"
            ),
            (
                String(repeating: "a", count: 64),
                "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
            ),
            (
                String(repeating: "a", count: 119),
                "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"
            ),
        ]
        for (message, digest) in vectors {
            XCTAssertEqual(SHA256.hash(Array(message.utf8)).hex, digest, "\(message.count) bytes")
        }
    }

    func testHMACSHA256RFC4231TestCases() {
        // Test case 1
        XCTAssertEqual(
            HMACSHA256.code(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)).hex,
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2
        XCTAssertEqual(
            HMACSHA256.code(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)).hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first
        XCTAssertEqual(
            HMACSHA256.code(
                for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                key: [UInt8](repeating: 0xaa, count: 131)
            ).hex,
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testTheDummyRecordsTheSignatureOfWhatWouldBeSent() throws {
        let secret = Array("s3cret".utf8)
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com/v1"),
            interceptors: [AppVersionHeader(), RequestSigner(keyID: "ios-1", secret: secret)])
        network.post(
            urlString: "employees", body: Employee(name: "Bo", salary: "2", age: "40"),
            successHandler: {}, errorHandler: { XCTFail("\($0)") })

        let sent = try XCTUnwrap(network.recordedRequests.first)
        let message =
            Array("POST\nhttps://api.example.com/v1/employees\n".utf8) + Array(try XCTUnwrap(sent.body))
        XCTAssertEqual(sent.header("X-Signature"), "ios-1:" + HMACSHA256.code(for: message, key: secret).hex)
        XCTAssertEqual(sent.header("X-App-Version"), "3.2")
    }

    func testAServerAcceptsTheSignatureOfEveryAttempt() throws {
        let secret = Array("s3cret".utf8)
        let verified = LockedCount()
        let server = MockServer { request in
            // What the server received, signed the same way: method, URL, body bytes.
            let url = "http://\(request.header("Host") ?? "")\(request.target)"
            let message = Array("\(request.method)\n\(url)\n".utf8) + Array(request.body)
            guard request.header("X-Signature") == "ios-1:" + HMACSHA256.code(for: message, key: secret).hex
            else {
                return MockResponse(status: 401, text: "bad signature")
            }
            // The first correctly signed attempt fails, so the retry's signature is checked too.
            return verified.increment() == 1 ? MockResponse(status: 503) : try .json(["signed"])
        }
        try server.start()
        defer { server.stop() }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
            retryPolicy: RetryPolicy(
                maximumAttempts: 2, initialDelay: 0.01, retriesNonIdempotentRequests: true),
            interceptors: [RequestSigner(keyID: "ios-1", secret: secret)])
        let answered = expectation(description: "answered")
        var reply: [String]?
        network.post(
            urlString: "reports?year=2026", body: ["title": "Q3 review"],
            successHandler: { (value: [String]) in
                reply = value
                answered.fulfill()
            },
            errorHandler: { error in
                XCTFail("\(error)")
                answered.fulfill()
            })
        wait(for: [answered], timeout: 5)
        XCTAssertEqual(reply, ["signed"])
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(verified.value, 2)
    }
}

/// A count any thread may bump.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
