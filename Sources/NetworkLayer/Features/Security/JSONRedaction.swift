import Foundation

/// Redacts the values of credential-named JSON members (`"password": "…"`), keeping everything else byte
/// for byte. A scanner, not a parser, so a body cut at the log limit or not quite JSON is redacted as far
/// as it goes; any value kind becomes `"<redacted>"`.
enum JSONRedaction {
    /// `text` with the values of members named in `names` (already ``Credentials/comparable(_:)``).
    static func redacted(_ text: String, names: Set<String>) -> String {
        guard text.utf8.contains(UInt8(ascii: "\"")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while let start = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) {
            let end = endOfString(bytes, from: start)
            output.append(contentsOf: bytes[index..<end])
            let name = bytes[(start + 1)..<max(start + 1, end - 1)]
            index = end
            let colon = endOfSpaces(bytes, from: index)
            guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":"),
                names.contains(comparableName(name))
            else { continue }
            let valueStart = endOfSpaces(bytes, from: colon + 1)
            // A member name at the text's end: the rest is written after the loop.
            guard valueStart < bytes.count else { break }
            output.append(contentsOf: bytes[index..<valueStart])
            output.append(contentsOf: Array("\"\(Redaction.marker)\"".utf8))
            index = endOfValue(bytes, from: valueStart)
            changed = true
        }
        output.append(contentsOf: bytes[index...])
        return changed ? String(decoding: output, as: UTF8.self) : text
    }

    /// `Credentials.comparable` of the member name; one with an escape (`\u0077`) is first unescaped as JSON
    /// reads it, so `"pass\u0077ord"` is redacted as `password`; one that doesn't unescape cleanly is
    /// compared as written.
    private static func comparableName(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "\\")) else {
            return Credentials.comparable(ascii: raw)
                ?? Credentials.comparable(String(decoding: raw, as: UTF8.self))
        }
        let written = String(decoding: raw, as: UTF8.self)
        let unescaped = try? JSONDecoder().decode(String.self, from: Data(("\"" + written + "\"").utf8))
        return Credentials.comparable(unescaped ?? written)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func endOfSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { !isSpace($0) } ?? bytes.count
    }

    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            return bytes[start...].firstIndex {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "]") || isSpace($0)
            } ?? bytes.count
        }
    }
}
