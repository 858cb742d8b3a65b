import Foundation

/// An upload's body, checked and measured before anything is sent: its pieces (bytes, or a file with its
/// length), its exact length, and a fresh stream for every attempt and every libcurl rewind.
struct UploadBody: Sendable {
    enum Segment: Sendable {
        case bytes(Data)
        /// `length` bytes of the file, from `start`.
        case file(URL, start: Int64 = 0, length: Int64)

        var length: Int64 {
            switch self {
            case .bytes(let data): Int64(data.count)
            case .file(_, _, let length): length
            }
        }
    }

    let segments: [Segment]
    let length: Int64

    /// The body of `segments`, the empty ones left out.
    private init(_ segments: [Segment]) {
        self.segments = segments.filter { $0.length > 0 }
        length = segments.reduce(0) { $0 + $1.length }
    }

    /// Checks every file (present, regular, readable) and measures the body, failing clearly before sending.
    static func prepare(_ source: UploadSource) throws(NetworkError) -> UploadBody {
        switch source {
        case .data(let data, _):
            return UploadBody([.bytes(data)])
        case .file(let url, _):
            return UploadBody([.file(url, length: try checkedLength(of: url))])
        case .fileRange(let url, let start, let count, _):
            let length = try checkedLength(of: url)
            guard start >= 0, count >= 0, start <= length - count else {
                throw .transport(
                    URLError(.fileDoesNotExist, file: url, "The file to upload, \(url.path), became shorter.")
                )
            }
            return UploadBody([.file(url, start: start, length: count)])
        case .multipart(let form):
            return try multipart(form)
        }
    }

    /// Reads the whole body through a fresh stream, as an attempt sends it (same bytes, same errors for a
    /// changed file), in pieces given to `consume` until it returns `false`.
    func read(_ consume: (Data) -> Bool) -> (isComplete: Bool, error: URLError?) {
        let stream = UploadBodyStream(body: self)
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count == 0 { return (true, nil) }
            guard count > 0, consume(Data(buffer[..<count])) else {
                return (false, stream.streamError as? URLError)
            }
        }
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
                // Referenced, not copied into the framing: no second copy of a large part.
                segments += [.bytes(pending), .bytes(data)]
                pending = Data()
            case .file(let url):
                segments += [.bytes(pending), .file(url, length: try checkedLength(of: url))]
                pending = Data()
            }
            pending.append(MultipartEncoding.lineBreak)
        }
        pending.append(MultipartEncoding.closing(boundary: form.boundary))
        segments.append(.bytes(pending))
        return UploadBody(segments)
    }

    /// The size of a regular, readable file, measured through the open file (a symbolic link's target).
    private static func checkedLength(of url: URL) throws(NetworkError) -> Int64 {
        func failure(_ code: URLError.Code, _ text: String) -> NetworkError {
            .transport(URLError(code, file: url, "The file to upload, \(url.path), \(text)."))
        }
        // The file is closed as the result drops it.
        switch POSIXFile.open(url, flags: O_RDONLY | O_NONBLOCK).flatMap({ $0.kind() }) {
        case .success(.regular(let size)): return size
        case .success(.folder): throw failure(.fileIsDirectory, "is a folder")
        case .success(.other):
            throw failure(
                .noPermissionsToReadFile, "can't be read: not a regular file (a pipe, a device or a socket)")
        case .failure(let error) where error.code == ENOENT || error.code == ENOTDIR:
            throw failure(.fileDoesNotExist, "does not exist")
        case .failure(let error): throw failure(.noPermissionsToReadFile, "can't be read: \(error.reason)")
        }
    }
}

/// The framing of `multipart/form-data` (RFC 7578).
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

    /// A name as browsers quote it: `"`, CR and LF percent-encoded.
    private static func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
