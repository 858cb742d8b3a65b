import Foundation
import NetworkLayer

/// An HTTP Archive (HAR 1.2): recorded HTTP exchanges, in the format browsers' developer tools, Charles
/// and Proxyman export and ``HARRecorder`` writes.
///
/// ```swift
/// let archive = try HARArchive(contentsOf: Bundle.module.url(forResource: "todos", withExtension: "har")!)
/// let stubs = StubTransport()
/// stubs.replay(archive)
/// ```
///
/// Reading is lenient, so that any exporter's file loads: fields this type does not model (`pages`,
/// `cookies`, `_initiator`, `serverIPAddress`, `content.compression`…) are ignored, and a missing field
/// that is not needed to replay takes a neutral value (an empty list, `""`, `0`). Only an entry's
/// `request.method`, `request.url` and `response.status` are required.
///
/// Writing produces every field HAR 1.2 requires (`cookies` and `cache` empty, `headersSize` `-1`), keys
/// sorted and indented, so that a recorded file reads well in a review and diffs cleanly.
public struct HARArchive: Sendable, Equatable {
    /// The format's version; `"1.2"` for a file this type writes.
    public var version: String
    /// The program that wrote the file.
    public var creator: Creator
    /// The exchanges, in the order they were recorded.
    public var entries: [Entry]

    /// The program that wrote an archive: `log.creator`.
    public struct Creator: Sendable, Equatable {
        /// The program's name.
        public var name: String
        /// The program's version.
        public var version: String

        /// A creator with this name and version.
        ///
        /// - Parameters:
        ///   - name: The recording tool's name.
        ///   - version: The recording tool's version.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// `NetworkTestSupport`, the writer of ``HARRecorder``'s files, at the library's version
        /// (`NetworkLayer.version`).
        public static let networkTestSupport = Creator(
            name: "NetworkTestSupport", version: NetworkLayer.version)
    }

    /// An archive of `entries`, version 1.2.
    ///
    /// - Parameters:
    ///   - creator: Who wrote the recording.
    ///   - entries: The exchanges, oldest first.
    public init(creator: Creator = .networkTestSupport, entries: [Entry] = []) {
        self.version = "1.2"
        self.creator = creator
        self.entries = entries
    }

    /// The archive in the HAR file at `url`, such as a test resource
    /// (`Bundle.module.url(forResource: "todos", withExtension: "har")`). Throws what reading the file
    /// throws, or a `DecodingError` when it is not a HAR file.
    ///
    /// - Parameter url: The HAR file to read.
    public init(contentsOf url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    /// The archive in `data`, the JSON text of a HAR file. Throws a `DecodingError` when it is not one.
    ///
    /// - Parameter data: A HAR file's contents (JSON).
    public init(data: Data) throws {
        self = try JSONDecoder().decode(HARArchive.self, from: data)
    }

    /// The archive as the JSON text of a HAR file: UTF-8, keys sorted, indented.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the archive to `url` as a HAR file (see ``jsonData()``), replacing any file there.
    ///
    /// - Parameter url: Where to write the file; an existing file is replaced.
    public func write(to url: URL) throws {
        try jsonData().write(to: url, options: .atomic)
    }
}

extension HARArchive: Codable {
    private enum FileKeys: String, CodingKey {
        case log
    }

    private enum LogKeys: String, CodingKey {
        case version, creator, entries
    }

    /// Reads `{"log": {"version", "creator", "entries"}}`, ignoring every other field.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let log = try decoder.container(keyedBy: FileKeys.self).nestedContainer(
            keyedBy: LogKeys.self, forKey: .log)
        version = log.lenient(.version, default: "1.2")
        creator = log.lenient(.creator, default: Creator(name: "", version: ""))
        entries = try log.decodeIfPresent([Entry].self, forKey: .entries) ?? []
    }

    /// Writes `{"log": {"version", "creator", "entries"}}`.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var file = encoder.container(keyedBy: FileKeys.self)
        var log = file.nestedContainer(keyedBy: LogKeys.self, forKey: .log)
        try log.encode(version, forKey: .version)
        try log.encode(creator, forKey: .creator)
        try log.encode(entries, forKey: .entries)
    }
}

extension HARArchive.Creator: Codable {
    private enum Keys: String, CodingKey {
        case name, version
    }

    /// Reads `name` and `version`, either of which may be missing.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        name = fields.lenient(.name, default: "")
        version = fields.lenient(.version, default: "")
    }

    /// Writes `name` and `version`.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(name, forKey: .name)
        try fields.encode(version, forKey: .version)
    }
}
