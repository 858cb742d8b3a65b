import Foundation
import XCTest

/// An article shows the signatures its samples call in a ```swift block whose first line is
/// `// Declarations`, so a reader needs no source. Each declaration there must be one of the library's,
/// as written in Sources/NetworkLayer or TestSupport/NetworkTestSupport, so the article cannot drift
/// from the code.
///
/// The rule: lines that start with `//` are comments (the marker, or the type a group belongs to); every
/// other line starts a declaration, which goes on over the next lines while a `(` or `[` is open. The
/// declaration, its whitespace collapsed and `public` dropped, must equal a declaration of the source,
/// read the same way, up to its body (a top-level `{`), with any leading attributes (`@discardableResult`)
/// optional. Default values are part of a declaration, so an article shows them as the source does;
/// an accessor block (`{ get }`) is the body, so it is not compared.
final class DeclarationSyncTests: XCTestCase {
    private static let sourceFolders = [
        "Sources/NetworkLayer", "TestSupport/NetworkTestSupport", "Sources/NetworkInspector",
    ]

    func testEveryArticleWithSamplesShowsTheDeclarationsItsSamplesCall() throws {
        for article in DocumentationFiles.articles {
            let blocks = DocumentationFiles.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8))
            guard blocks.contains(where: DocumentationFiles.isSample) else { continue }
            XCTAssertTrue(
                blocks.contains(where: DocumentationFiles.isDeclarationsBlock),
                "\(DocumentationFiles.relativePath(article)) has Swift samples but no block that starts "
                    + "with \(DocumentationFiles.declarationsMarker)")
        }
    }

    func testEveryDeclarationInTheArticlesIsOneOfTheLibrarys() throws {
        let source = Self.declared(try Self.sourceDeclarations())
        var count = 0
        for article in DocumentationFiles.articles {
            let blocks = DocumentationFiles.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8))
            for block in blocks where DocumentationFiles.isDeclarationsBlock(block) {
                for declaration in Self.declarations(in: block) {
                    count += 1
                    XCTAssertTrue(
                        source.contains(Self.signature(declaration)),
                        "\(DocumentationFiles.relativePath(article)) declares `\(declaration)`, which is not "
                            + "a declaration of \(Self.sourceFolders.joined(separator: " or ")) as written "
                            + "there (whitespace and `public` aside)")
                }
            }
        }
        XCTAssertGreaterThan(count, 10)
    }

    func testTheRuleSeesADriftedSignature() {
        let lines = Self.declarations(
            in: """
                @discardableResult
                public func get<T: Decodable>(
                    urlString: String,
                    query: [String: String] = [:]
                ) -> NetworkTask {
                    send(request(urlString, "("))
                }
                @MainActor public func show(_ text: String) {}
                public var path: String { get }
                """
        )
        let source = Self.declared(lines.map(Self.signature))
        let get = "func get<T: Decodable>(urlString: String, query: [String: String] = [:]) -> NetworkTask"
        for declared in [
            get,
            "func get<T: Decodable>(\n urlString: String,\n query: [String: String] = [:]\n) -> NetworkTask",
            "@MainActor func show(_ text: String)", "func show(_ text: String)", "var path: String { get }",
        ] {
            XCTAssertTrue(Self.isDeclared(declared, among: source), declared)
        }
        for drifted in [
            get.replacingOccurrences(of: " = [:]", with: ""),
            get.replacingOccurrences(of: " -> NetworkTask", with: ""),
            get.replacingOccurrences(of: "urlString:", with: "url:"),
            get.replacingOccurrences(of: "urlString: String,", with: "urlString: String?,"),
            "func get<T: Decodable>(urlString: String", "static func show(_ text: String)", "var path: Int",
        ] {
            XCTAssertFalse(Self.isDeclared(drifted, among: source), drifted)
        }
    }

    /// Whether an article's declaration, which may go over several lines, is one of the source's.
    private static func isDeclared(_ declaration: String, among source: Set<String>) -> Bool {
        let logical = declarations(in: declaration)
        return logical.count == 1 && source.contains(signature(logical[0]))
    }

    /// The source's declarations, each also without its leading attributes, which an article may leave out.
    private static func declared(_ source: [String]) -> Set<String> {
        var declared: Set<String> = []
        for declaration in source {
            var words = declaration.split(separator: " ")
            declared.insert(declaration)
            while words.count > 1, words[0].hasPrefix("@") {
                words.removeFirst()
                declared.insert(words.joined(separator: " "))
            }
        }
        return declared
    }

    private static func sourceDeclarations() throws -> [String] {
        var declarations: [String] = []
        for folder in sourceFolders {
            let files = DocumentationFiles.files(
                under: DocumentationFiles.packageRoot.appendingPathComponent(folder)
            ) {
                $0.pathExtension == "swift"
            }
            XCTAssertFalse(files.isEmpty, "no sources in \(folder)")
            for file in files {
                declarations += Self.declarations(in: try String(contentsOf: file, encoding: .utf8)).map(
                    signature)
            }
        }
        return declarations
    }

    /// The logical lines of Swift text: a line joined with the next ones while a `(` or `[` is open,
    /// without comments, its whitespace collapsed, `public` dropped.
    private static func declarations(in text: String) -> [String] {
        var declarations: [String] = []
        var pending = ""
        var depth = 0
        for line in text.split(separator: "\n") {
            let code = Self.code(of: line)
            if code.isEmpty { continue }
            pending += " " + code
            depth = max(0, depth + Self.openings(in: code))
            if depth == 0 {
                declarations.append(Self.normalized(pending))
                pending = ""
            }
        }
        if !pending.isEmpty { declarations.append(Self.normalized(pending)) }
        return declarations
    }

    /// A line without its `//` comment (outside string literals).
    private static func code(of line: Substring) -> String {
        var inString = false
        var previous: Character = " "
        var end = line.endIndex
        for index in line.indices {
            let character = line[index]
            if character == "\"" && previous != "\\" {
                inString.toggle()
            } else if !inString, character == "/", previous == "/" {
                end = line.index(before: index)
                break
            }
            previous = character
        }
        return line[..<end].trimmingCharacters(in: .whitespaces)
    }

    /// How many `(` and `[` a line of code opens, less those it closes, outside string literals.
    private static func openings(in code: String) -> Int {
        var inString = false
        var previous: Character = " "
        var depth = 0
        for character in code {
            if character == "\"" && previous != "\\" {
                inString.toggle()
            } else if !inString {
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" { depth -= 1 }
            }
            previous = character
        }
        return depth
    }

    private static func normalized(_ text: String) -> String {
        var words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (spaced, tight) in [("( ", "("), (" )", ")"), ("[ ", "["), (" ]", "]"), (",)", ")")] {
            words = words.replacingOccurrences(of: spaced, with: tight)
        }
        return words.split(separator: " ").filter { $0 != "public" }.joined(separator: " ")
    }

    /// A declaration up to its body: the text before its first `{` outside brackets and string literals.
    private static func signature(_ declaration: String) -> String {
        var depth = 0
        var inString = false
        var previous: Character = " "
        for index in declaration.indices {
            let character = declaration[index]
            if character == "\"" && previous != "\\" {
                inString.toggle()
            } else if !inString {
                if "([".contains(character) { depth += 1 }
                if ")]".contains(character) { depth -= 1 }
                if character == "{", depth <= 0 {
                    return declaration[..<index].trimmingCharacters(in: .whitespaces)
                }
            }
            previous = character
        }
        return declaration
    }
}
