import Foundation

/// A `multipart/form-data` body taken apart as a server would, to check what the layer sent.
struct ParsedPart: Equatable {
    var headers: [String: String]
    var body: Data

    /// The `name` parameter of the part's `Content-Disposition`.
    var name: String? { parameter("name") }
    /// The `filename` parameter of the part's `Content-Disposition`.
    var fileName: String? { parameter("filename") }

    private func parameter(_ key: String) -> String? {
        guard let disposition = headers["content-disposition"] else { return nil }
        for piece in disposition.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == key { return String(pair[1].dropFirst().dropLast()) }
        }
        return nil
    }

    /// Splits `body` at `boundary`; `nil` when it is not a well-formed multipart body.
    static func parse(_ body: Data, boundary: String) -> [ParsedPart]? {
        let delimiter = Data("--\(boundary)".utf8)
        let lineBreak = Data("\r\n".utf8)
        guard body.starts(with: delimiter) else { return nil }
        var parts: [ParsedPart] = []
        var position = body.startIndex + delimiter.count
        while true {
            let rest = body[position...]
            if rest.starts(with: Data("--\r\n".utf8)) { return position + 4 == body.endIndex ? parts : nil }
            guard rest.starts(with: lineBreak),
                let headEnd = body.range(of: Data("\r\n\r\n".utf8), in: position..<body.endIndex),
                let next = body.range(of: lineBreak + delimiter, in: headEnd.upperBound..<body.endIndex)
            else { return nil }
            var headers: [String: String] = [:]
            let head = String(decoding: body[(position + 2)..<headEnd.lowerBound], as: UTF8.self)
            for line in head.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { return nil }
                headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
            }
            parts.append(ParsedPart(headers: headers, body: Data(body[headEnd.upperBound..<next.lowerBound])))
            position = next.upperBound
        }
    }
}
