/// A set of ASCII bytes as a table indexed by byte: the per-request scans (a header name, a plain path,
/// a plain host) cost one lookup per byte instead of String's searches.
struct ByteSet: Sendable {
    private let table: [Bool]

    init(_ characters: String) {
        var table = [Bool](repeating: false, count: 256)
        for byte in characters.utf8 { table[Int(byte)] = true }
        self.table = table
    }

    /// Whether every byte of `text` is in the set (`true` for an empty one).
    func containsAll(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { table[Int($0)] }
    }
}
