import Foundation

/// The Markdown documents of the package (the README and the articles of every `.docc` catalog under
/// Sources and TestSupport) and their Swift blocks, which ReadmeSyncTests and DeclarationSyncTests check.
enum DocumentationFiles {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// The folders whose `.docc` catalogs hold articles.
    static let catalogRoots = ["Sources", "TestSupport"]

    /// The first line that marks a ```swift block as the declarations an article's samples call, copied
    /// from the library's source, rather than a sample: DeclarationSyncTests checks it against the source
    /// instead of ReadmeSyncTests looking for it in a compiled file.
    static let declarationsMarker = "// Declarations"

    /// The first line that marks a ```swift block as code that no longer compiles (Migrating.md's "before"
    /// forms): MigratingTests finds it in a compile-fail case instead of ReadmeSyncTests in a compiled file.
    static let beforeMarker = "// Before"

    static var articles: [URL] {
        catalogRoots.flatMap {
            files(under: packageRoot.appendingPathComponent($0)) {
                $0.pathExtension == "md" && $0.pathComponents.contains { $0.hasSuffix(".docc") }
            }
        }
    }

    static func relativePath(_ file: URL) -> String {
        file.path.replacingOccurrences(of: packageRoot.path + "/", with: "")
    }

    static func files(under folder: URL, where include: (URL) -> Bool) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let file = enumerator?.nextObject() as? URL {
            if include(file) { files.append(file.standardizedFileURL) }
        }
        return files.sorted { $0.path < $1.path }
    }

    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether a block is a sample to compile: neither manifest lines, which belong to the consumer's
    /// `Package.swift`, nor declarations, nor a "before" form.
    static func isSample(_ block: String) -> Bool {
        !isManifestSnippet(block) && !isDeclarationsBlock(block) && !isBeforeBlock(block)
    }

    static func isBeforeBlock(_ block: String) -> Bool {
        block.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) == beforeMarker
    }

    static func isManifestSnippet(_ block: String) -> Bool {
        block.contains(".package(") || block.contains(".target(") || block.contains(".testTarget(")
    }

    static func isDeclarationsBlock(_ block: String) -> Bool {
        block.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) == declarationsMarker
    }
}
