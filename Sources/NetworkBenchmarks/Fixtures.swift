import Foundation

/// One record of the benchmark's JSON replies (~200 bytes encoded).
struct Record: Codable, Sendable {
    let id: Int
    let name: String
    let email: String
    let address: String
    let department: String
    let active: Bool
    let score: Double
    let tags: [String]
}

/// A small POST body and its reply.
struct Greeting: Codable, Sendable {
    let id: Int
    let message: String
}

/// The payloads both clients fetch, identical for the embedded server and for nginx.
enum Fixtures {
    static func records(_ count: Int) -> [Record] {
        (0..<count).map { index in
            Record(
                id: index, name: "Employee \(index)", email: "employee\(index)@example.com",
                address: "\(index) Example Street, Suite \(index % 100), Springfield",
                department: ["Engineering", "Sales", "Support", "Finance"][index % 4], active: index % 3 != 0,
                score: Double(index % 1000) / 10, tags: ["team-\(index % 17)", "level-\(index % 5)"])
        }
    }

    /// ~1 KB: five records.
    static let small: Data = encode(records(5))
    /// ~1 MB: 5,000 records.
    static let large: Data = encode(records(5_000))
    /// What `POST /echo` answers.
    static let echoReply: Data = encode(Greeting(id: 1, message: "ok"))

    private static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding these plain value types cannot fail.
        return (try? encoder.encode(value)) ?? Data()
    }

    /// Writes `small.json` and `large.json` for an external server such as nginx.
    static func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try small.write(to: folder.appendingPathComponent("small.json"))
        try large.write(to: folder.appendingPathComponent("large.json"))
    }
}
