import Foundation

/// Who may read the inspector: a request carrying the page's token, sent to a loopback `Host` with the
/// inspector's port (a rebound DNS name pointing at 127.0.0.1 carries its own name, and is refused).
struct AccessCheck: Sendable {
    /// 128 random bits, as 32 hexadecimal digits.
    let token: String
    let port: Int

    init(port: Int, token: String = AccessCheck.randomToken()) {
        self.port = port
        self.token = token
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let half = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - half.count) + half
        }.joined()
    }

    /// Whether `host` (the `Host` header) names the loopback interface and this port.
    func allows(host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return ["127.0.0.1", "localhost", "[::1]"].contains { host == "\($0):\(port)" }
    }

    /// Whether `candidate` is the token, compared in time that depends on its length only, so a
    /// guesser learns nothing from how long a refusal took.
    func allows(token candidate: String?) -> Bool {
        guard let candidate else { return false }
        let given = Array(candidate.utf8)
        let expected = Array(token.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }
}
