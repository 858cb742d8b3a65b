// The two checks `.ci/docs` and `.ci/api-check` need that the toolchain's tools don't do themselves,
// in plain Swift and Foundation so CI needs nothing but the toolchain. Built by `.ci/build-libraries`
// with `swiftc` into `.build/libraries/docs-api-tool` (a few seconds, only when this file changed).
//
//   docs-api-tool check-docs <symbol-graph-dir> <catalog-dir>
//       Fails, listing each one, when a public symbol has no documentation comment or a parameter of a
//       public function, initializer or subscript is missing from its `- Parameters:` list (DocC itself
//       only warns about documented parameters that don't exist). Then lists, without failing, the
//       module's top-level symbols that no topic group of the catalog names: DocC shows those in its
//       automatic sections.
//
//   docs-api-tool normalize-api <dump.json> <output.json>
//       Rewrites a `swift-api-digester -dump-sdk` dump as the public API only, in a stable order: drops
//       `package` declarations (the digester dumps them, marked `isInternal`) and the module's imports
//       (which differ between debug and release builds and are no API), sorts each type's members, and
//       writes the JSON with sorted keys, so the baseline in the repository changes only when the public
//       API does.

import Foundation

enum JSON: Codable, Equatable {
    case object([String: JSON])
    case array([JSON])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var int: Int? {
        if case .int(let value) = self { value } else { nil }
    }

    var array: [JSON] {
        if case .array(let value) = self { value } else { [] }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func readJSON(_ path: String) -> JSON {
    do {
        return try JSONDecoder().decode(JSON.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        fail("docs-api-tool: cannot read \(path): \(error)")
    }
}

// MARK: - check-docs

/// The parameter names a documentation comment documents: `- Parameter name:` lines, and the items of a
/// `- Parameters:` list.
func documentedParameters(_ lines: [String]) -> Set<String> {
    var names: Set<String> = []
    var inList = false
    for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let indented = line.hasPrefix(" ") || line.hasPrefix("\t")
        guard trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("+ ") else {
            continue
        }
        let item = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
        let lowered = item.lowercased()
        if lowered.hasPrefix("parameters:") {
            inList = true
        } else if lowered.hasPrefix("parameter ") {
            let rest = item.dropFirst("parameter ".count)
            if let colon = rest.firstIndex(of: ":") {
                names.insert(rest[..<colon].trimmingCharacters(in: .whitespaces))
            }
        } else if inList && indented, let colon = item.firstIndex(of: ":") {
            names.insert(String(item[..<colon]).trimmingCharacters(in: .whitespaces))
        } else if !indented {
            inList = false
        }
    }
    return names
}

func checkDocs(graphs: String, catalog: String) {
    let files =
        (try? FileManager.default.contentsOfDirectory(atPath: graphs))?.filter {
            $0.hasSuffix(".symbols.json")
        }.sorted() ?? []
    guard !files.isEmpty else { fail("docs-api-tool: no symbol graphs in \(graphs)") }
    let root = FileManager.default.currentDirectoryPath + "/"
    var problems: [String] = []
    var topLevel: Set<String> = []
    for file in files {
        let graph = readJSON(graphs + "/" + file)
        for symbol in graph["symbols"]?.array ?? [] {
            let precise = symbol["identifier"]?["precise"]?.string ?? ""
            let kind = symbol["kind"]?["identifier"]?.string ?? ""
            let path = (symbol["pathComponents"]?.array ?? []).compactMap(\.string)
            // Members a conformance brings from another module (`Collection`'s `map`, say), extension
            // blocks (their members are checked), and declarations the compiler wrote have no comment
            // of ours to check.
            guard !precise.contains("::SYNTHESIZED::"), kind != "swift.extension",
                let location = symbol["location"]
            else { continue }
            if path.count == 1, file.contains("@") == false { topLevel.insert(path[0]) }
            let source = (location["uri"]?.string ?? "").replacingOccurrences(of: "file://" + root, with: "")
            let place = "\(source):\((location["position"]?["line"]?.int ?? 0) + 1)"
            let name = path.joined(separator: "/")
            let lines = (symbol["docComment"]?["lines"]?.array ?? []).compactMap { $0["text"]?.string }
            if lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                problems.append("\(place): \(name) has no documentation comment")
                continue
            }
            let parameters = (symbol["functionSignature"]?["parameters"]?.array ?? []).compactMap {
                $0["internalName"]?.string ?? $0["name"]?.string
            }
            let documented = documentedParameters(lines)
            let missing = parameters.filter { $0 != "_" && !documented.contains($0) }
            if !missing.isEmpty {
                problems.append(
                    "\(place): \(name) does not document "
                        + missing.map { "parameter '\($0)'" }.joined(separator: ", "))
            }
        }
    }
    if !problems.isEmpty {
        fail(
            "docs-api-tool: \(problems.count) public symbols lack documentation:\n"
                + problems.sorted().joined(separator: "\n"))
    }

    // Top-level symbols that no `## Topics` section of the catalog names.
    var curated: Set<String> = []
    let enumerator = FileManager.default.enumerator(atPath: catalog)
    while let file = enumerator?.nextObject() as? String {
        guard file.hasSuffix(".md"),
            let text = try? String(contentsOfFile: catalog + "/" + file, encoding: .utf8)
        else { continue }
        var inTopics = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inTopics = line.hasPrefix("## Topics") }
            guard inTopics, line.hasPrefix("- ``") else { continue }
            let link = line.dropFirst(4).prefix { $0 != "`" }
            curated.insert(String(link.split(separator: "/").last ?? link))
        }
    }
    let uncurated = topLevel.subtracting(curated).sorted()
    if !uncurated.isEmpty {
        print(
            "docs-api-tool: in no topic group of \(catalog) (DocC lists them in its automatic sections): "
                + uncurated.joined(separator: ", "))
    }
}

// MARK: - normalize-api

func normalize(_ node: JSON) -> JSON {
    guard case .object(var object) = node else { return node }
    let kind = object["kind"]?.string ?? ""
    if case .array(let children) = object["children"] {
        var kept = children.filter { child in
            if case .bool(true) = child["isInternal"] { return false }
            return child["kind"]?.string != "Import"
        }.map(normalize)
        // A type's members and the module's declarations have no order that matters; the children of a
        // function or a type (its result and parameters, its generic arguments) do.
        if kind == "Root" || kind == "TypeDecl" {
            kept.sort { sortKey($0) < sortKey($1) }
        }
        object["children"] = .array(kept)
    }
    if case .array(let conformances) = object["conformances"] {
        object["conformances"] = .array(conformances.sorted { sortKey($0) < sortKey($1) })
    }
    return .object(object)
}

func sortKey(_ node: JSON) -> String {
    [node["kind"]?.string, node["declKind"]?.string, node["printedName"]?.string, node["usr"]?.string]
        .map { $0 ?? "" }.joined(separator: "\u{1}")
}

func normalizeAPI(input: String, output: String) {
    guard case .object(var root) = readJSON(input), let abiRoot = root["ABIRoot"] else {
        fail("docs-api-tool: \(input) is not a swift-api-digester dump")
    }
    root["ABIRoot"] = normalize(abiRoot)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
        var data = try encoder.encode(JSON.object(root))
        data.append(UInt8(ascii: "\n"))
        try data.write(to: URL(fileURLWithPath: output))
    } catch {
        fail("docs-api-tool: cannot write \(output): \(error)")
    }
}

// MARK: -

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.count) {
case ("check-docs", 3): checkDocs(graphs: arguments.dropFirst().first!, catalog: arguments.last!)
case ("normalize-api", 3): normalizeAPI(input: arguments.dropFirst().first!, output: arguments.last!)
default:
    fail(
        "usage: docs-api-tool check-docs <symbol-graph-dir> <catalog-dir>\n"
            + "       docs-api-tool normalize-api <dump.json> <output.json>")
}
