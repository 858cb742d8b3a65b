import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an interrupted download leaves beside its destination: the bytes received so far in
/// `<destination>.partial`, and in `<destination>.partial.json` the validator that identifies the version
/// they belong to (`ETag`, else `Last-Modified`) with the URL they came from (without its query, which
/// may hold a signature) and the full length.
///
/// The next download to the same destination sends `Range: bytes=<size>-` with `If-Range: <validator>`,
/// from whatever URL it is given: the validator, not the URL, decides whether the bytes still belong.
struct PartialDownload: Sendable {
    let destination: URL
    /// The bytes so far.
    let file: URL
    /// The validator and where the bytes came from.
    let infoFile: URL

    init(destination: URL) {
        self.destination = destination
        file = URL(fileURLWithPath: destination.path + ".partial")
        infoFile = URL(fileURLWithPath: destination.path + ".partial.json")
    }

    /// What identifies the version the partial bytes belong to.
    struct Info: Codable, Equatable, Sendable {
        var version = 1
        /// The URL the bytes came from, without query or fragment.
        var url: String
        /// A strong `ETag`; when present it is the validator.
        var entityTag: String?
        /// `Last-Modified`, the validator when there is no strong `ETag`.
        var lastModified: String?
        /// The length of the whole file, when the server said.
        var totalBytes: Int64?

        /// The `If-Range` value: the `ETag`, else `Last-Modified`.
        var validator: String? { entityTag ?? lastModified }
    }

    /// Where a resumed request starts: the bytes on disk and their validator; `nil` when there is nothing
    /// to resume (no partial file, no validator, or nothing received yet).
    func resumePoint() -> (offset: Int64, info: Info)? {
        guard let data = try? Data(contentsOf: infoFile),
            let info = try? JSONDecoder().decode(Info.self, from: data), info.validator != nil,
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0
        else { return nil }
        return (size, info)
    }

    /// Records which version the bytes belong to; `false` if it can't be written.
    @discardableResult
    func save(_ info: Info) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(info) else { return false }
        return (try? data.write(to: infoFile, options: .atomic)) != nil
    }

    /// Deletes the partial bytes and their info, whichever exist.
    func remove() {
        try? FileManager.default.removeItem(at: file)
        removeInfo()
    }

    /// Deletes the info file alone (the bytes have been moved into place).
    func removeInfo() {
        try? FileManager.default.removeItem(at: infoFile)
    }

    /// The info for a 200 or 206 reply, or `nil` when the reply can't be resumed later: it has no strong
    /// `ETag` and no `Last-Modified`, or it is content-encoded (byte ranges would count encoded bytes).
    static func info(for response: HTTPURLResponse, totalBytes: Int64?) -> Info? {
        let encoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        guard encoding == nil || encoding == "identity" else { return nil }
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
