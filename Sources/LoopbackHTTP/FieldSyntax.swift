/// What RFC 9110 lets into a header field, checked on the way in (the parser) and on the way out (a
/// handler's reply), so no field can end the line it is on.
package enum FieldSyntax {
    /// Whether `bytes` form a token (a method or a field name): one or more of the characters it allows.
    package static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    return true
                default:
                    return symbols.contains(byte)
                }
            }
    }

    /// Whether `value` can be written as a field value: no CR, LF or NUL, which would end the line or the
    /// string early.
    package static func isSafeValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    private static let symbols = Set("!#$%&'*+-.^_`|~".utf8)
}
