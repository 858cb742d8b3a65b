import Foundation

/// How one resumable-upload protocol spells the exchanges ``ResumableUploadTask`` runs: the headers, the
/// append's content type, what in the creation reply says the server speaks it, how far a successful
/// append got, and whether the last one completes the upload.
struct UploadDialect: Sendable {
    /// The protocol's name, for ``NetworkError/resumableUploadUnsupported(protocolName:status:)``.
    let name: String
    /// Sent on every exchange.
    let versionHeaders: [String: String]
    /// The creation request's headers, for a file of `length` bytes (sent with an empty body).
    let creationHeaders: @Sendable (_ length: Int64) -> [String: String]
    /// The `PATCH` headers besides `Upload-Offset` and the version, for the file's last append or another.
    let appendHeaders: @Sendable (_ isLast: Bool) -> [String: String]
    let appendContentType: String
    /// Whether the creation reply's headers show a server speaking the protocol (with a `Location`).
    let recognizes: @Sendable (ResponseHeaders) -> Bool
    /// Whether a 2xx to the file's last append means the whole file is stored (the draft's
    /// `Upload-Complete: ?1`), rather than reading how far it got from `Upload-Offset`.
    let appendCompletes: Bool
    /// Whether a cancelled upload is removed from the server with `DELETE`.
    let deletesWhenCancelled: Bool

    static let tus = UploadDialect(
        name: "tus 1.0", versionHeaders: ["Tus-Resumable": "1.0.0"],
        creationHeaders: { ["Upload-Length": String($0)] }, appendHeaders: { _ in [:] },
        appendContentType: "application/offset+octet-stream",
        recognizes: { $0["Tus-Resumable"] != nil && $0["Location"] != nil },
        appendCompletes: false, deletesWhenCancelled: false)

    /// draft-ietf-httpbis-resumable-upload-05, whose interop version 6 URLSession sends since iOS 18. The
    /// upload is created empty with `Upload-Complete: ?0` and its resource read from the FINAL reply's
    /// `Location`, since libcurl consumes the `104` that would name it earlier; the file then goes in
    /// `PATCH`es marked incomplete (`Upload-Complete: ?0`), the last one complete (`?1`). An empty file is
    /// created complete at once.
    static let ietfDraft = UploadDialect(
        name: "the IETF resumable-upload draft (interop version 6)",
        versionHeaders: ["Upload-Draft-Interop-Version": "6"],
        creationHeaders: { ["Upload-Complete": $0 == 0 ? "?1" : "?0", "Upload-Length": String($0)] },
        appendHeaders: { ["Upload-Complete": $0 ? "?1" : "?0"] },
        appendContentType: "application/partial-upload",
        // A server that doesn't know the draft takes the empty POST as an upload of its own and may name
        // a resource too: the draft's fields in the reply tell them apart.
        recognizes: { headers in
            headers["Location"] != nil
                && (headers["Upload-Draft-Interop-Version"] != nil || headers["Upload-Offset"] != nil)
        },
        appendCompletes: true, deletesWhenCancelled: true)
}

extension UploadDialect {
    init(_ uploadProtocol: ResumableUpload.UploadProtocol) {
        switch uploadProtocol {
        case .tus: self = .tus
        case .ietfDraft: self = .ietfDraft
        }
    }

    /// How far the server got, by a 2xx to an append of `count` bytes from `offset`: its `Upload-Offset`;
    /// without one, the whole append with the draft (a successful append was read whole; draft-05 requires
    /// no offset in the reply), nothing with tus (which requires it). `nil` when the server moved backwards
    /// or not at all, or claims more than was sent: beyond the append, or beyond the file (a broken or
    /// hostile server's reply, refused as a `HEAD` claiming more than the file is).
    func reached(_ headers: ResponseHeaders, from offset: Int64, sent count: Int64) -> Int64? {
        let claimed = headers["Upload-Offset"].map { Int64($0) }
        guard let reached = claimed ?? (appendCompletes ? offset + count : nil) else { return nil }
        return reached > offset && reached - offset <= count ? reached : nil
    }
}
