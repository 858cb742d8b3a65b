import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an interrupted download leaves beside its destination: the bytes in `<destination>.partial`, and
/// in `.partial.json` (a durable record holding JSON: see ``DurableRecord``) their version's validator
/// (`ETag`, else `Last-Modified`), URL (without the query, which may hold a signature) and full length.
/// The next download there sends `Range` with `If-Range`: the validator, not the URL, decides whether
/// the bytes still belong.
struct PartialDownload: Sendable {
    let file: URL
    let infoFile: URL

    init(destination: URL) {
        file = URL(fileURLWithPath: destination.path + ".partial")
        infoFile = URL(fileURLWithPath: destination.path + ".partial.json")
    }

    struct Info: Codable, Equatable, Sendable {
        /// The layout this code writes and reads: the record's content version.
        static let version: UInt16 = 1
        /// A record larger than this is no info file of the layer's.
        static let largest = 64 * 1024
        /// Without query or fragment.
        var url: String
        /// A strong `ETag`; when present it is the validator.
        var entityTag: String?
        /// The validator when there is no strong `ETag`.
        var lastModified: String?
        var totalBytes: Int64?

        var validator: String? { entityTag ?? lastModified }
    }

    /// Where a resumed request starts; `nil` with no partial file, no validator, or nothing received.
    func resumePoint() -> (offset: Int64, info: Info)? {
        guard let stored = try? DurableFolder.read(infoFile, key: nil, maximumSize: Info.largest),
            stored.contentVersion == Info.version,
            let info = try? JSONDecoder().decode(Info.self, from: stored.payload), info.validator != nil,
            case let size = receivedBytes, size > 0
        else { return nil }
        return (size, info)
    }

    /// The bytes in the partial file; 0 when there is none.
    var receivedBytes: Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Records which version the bytes belong to; without it they are merely not resumed.
    func save(_ info: Info) {
        guard let payload = try? JSONEncoder().encode(info) else { return }
        try? DurableFolder.write(
            payload, contentVersion: Info.version, key: nil, to: infoFile, flushToDevice: false)
    }

    func remove() {
        try? FileManager.default.removeItem(at: file)
        removeInfo()
    }

    /// Deletes the info file alone (the bytes were moved into place).
    func removeInfo() {
        try? FileManager.default.removeItem(at: infoFile)
    }

    /// The info for a 200 or 206 not content-encoded (ranges would count encoded bytes), or `nil` when it
    /// can't be resumed: no strong `ETag` or `Last-Modified`.
    static func info(for response: HTTPURLResponse, totalBytes: Int64?) -> Info? {
        let entityTag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
        guard entityTag != nil || lastModified != nil, let url = response.url else { return nil }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        return Info(
            url: components?.string ?? "", entityTag: entityTag, lastModified: lastModified,
            totalBytes: totalBytes)
    }
}
