/// Header names compared in place, as RFC 9110 tokens: ASCII letters in either case, every other byte
/// exactly. Why not `lowercased()`: it copies each name, and on Linux costs more than the compare. Why not
/// `| 0x20` alone: it also folds non-letters (`@` with `` ` ``, a carriage return with `-`).
extension String {
    /// Whether this is `other`, ASCII letters in either case.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        utf8.count == other.utf8.count && hasPrefixIgnoringASCIICase(other)
    }

    /// Whether this begins with `prefix`, ASCII letters in either case.
    func hasPrefixIgnoringASCIICase(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8) { lhs, rhs in
            lhs == rhs || (lhs ^ rhs == 0x20 && (lhs | 0x20) &- UInt8(ascii: "a") < 26)
        }
    }
}
