import Foundation

/// An upload's body, checked and measured before anything is sent: its pieces in order (bytes in
/// memory, or a file and the length it had), its exact length, and a fresh stream over it for every
/// attempt and every time libcurl rewinds.
struct UploadBody: Sendable {
    enum Segment: Sendable {
        case bytes(Data)
        case file(URL, length: Int64)
    }

    let segments: [Segment]
    /// The exact number of bytes the streams produce: the request's `Content-Length`.
    let length: Int64

    /// Checks every file (present, a regular file, readable) and measures the body; a problem is a clear
    /// error before anything is sent.
    static func prepare(_ source: UploadSource) throws(NetworkError) -> UploadBody {
        switch source {
        case .data(let data, _):
            return UploadBody(segments: [.bytes(data)], length: Int64(data.count))
        case .file(let url, _):
            let length = try checkedLength(of: url)
            return UploadBody(segments: [.file(url, length: length)].filter(\.isNotEmpty), length: length)
        case .multipart(let form):
            return try multipart(form)
        }
    }

    /// A new stream over the whole body, positioned at its start.
    func makeStream() -> UploadBodyStream {
        UploadBodyStream(body: self)
    }

    private static func multipart(_ form: MultipartFormData) throws(NetworkError) -> UploadBody {
        guard MultipartEncoding.isValid(boundary: form.boundary) else { throw .invalidHeader("Content-Type") }
        var segments: [Segment] = []
        var pending = Data()
        for part in form.parts {
            pending.append(try MultipartEncoding.head(of: part, boundary: form.boundary))
            switch part.content {
            case .text(let text): pending.append(Data(text.utf8))
            case .data(let data):
                // Referenced, not copied into the framing: a large part costs no second copy.
                segments.append(.bytes(pending))
                segments.append(.bytes(data))
                pending = Data()
            case .file(let url):
                let length = try checkedLength(of: url)
                segments.append(.bytes(pending))
                segments.append(.file(url, length: length))
                pending = Data()
            }
            pending.append(MultipartEncoding.lineBreak)
        }
        pending.append(MultipartEncoding.closing(boundary: form.boundary))
        segments.append(.bytes(pending))
        let length = segments.reduce(Int64(0)) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(_, let length): total + length
            }
        }
        return UploadBody(segments: segments.filter(\.isNotEmpty), length: length)
    }

    /// The size of the file at `url`, after checking that it is a regular file this process can read:
    /// measured through the open file, so a symbolic link counts as the file it leads to.
    private static func checkedLength(of url: URL) throws(NetworkError) -> Int64 {
        let file: POSIXFile
        switch POSIXFile.openForInspection(url) {
        case .success(let opened): file = opened
        case .failure(let failure) where failure.code == ENOENT || failure.code == ENOTDIR:
            throw FileError.uploadMissing(url)
        case .failure(let failure): throw FileError.uploadUnreadable(url, reason: failure.reason)
        }
        defer { file.close() }
        switch file.kind() {
        case .success(.regular(let size)): return size
        case .success(.folder): throw FileError.uploadIsFolder(url)
        case .success(.other):
            throw FileError.uploadUnreadable(url, reason: "not a regular file (a pipe, a device or a socket)")
        case .failure(let failure): throw FileError.uploadUnreadable(url, reason: failure.reason)
        }
    }
}

extension UploadBody.Segment {
    fileprivate var isNotEmpty: Bool {
        switch self {
        case .bytes(let data): !data.isEmpty
        case .file(_, let length): length > 0
        }
    }
}

/// The framing of `multipart/form-data` (RFC 7578): a boundary line and headers before each part, a
/// line break after it, and a closing boundary.
enum MultipartEncoding {
    static let lineBreak = Data("\r\n".utf8)

    static func head(of part: MultipartFormData.Part, boundary: String) throws(NetworkError) -> Data {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escaped(part.name))\""
        if let fileName = part.fileName { head += "; filename=\"\(escaped(fileName))\"" }
        head += "\r\n"
        if let mimeType = part.mimeType {
            guard !mimeType.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw .invalidHeader("Content-Type")
            }
            head += "Content-Type: \(mimeType)\r\n"
        }
        return Data((head + "\r\n").utf8)
    }

    static func closing(boundary: String) -> Data {
        Data("--\(boundary)--\r\n".utf8)
    }

    /// RFC 2046's boundary: 1 to 70 characters from a small set, so it can't break the header it is in.
    static func isValid(boundary: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?".utf8)
        return (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(allowed.contains)
    }

    /// A name as browsers write it inside quotes: `"`, CR and LF percent-encoded.
    private static func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
