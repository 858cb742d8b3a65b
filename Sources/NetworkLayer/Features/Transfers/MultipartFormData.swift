import Foundation

/// A `multipart/form-data` body: text fields and files, as an HTML form posts them.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Quarterly report", name: "title")
/// form.append(fileURL: reportURL, name: "file", mimeType: "application/pdf")
/// network.send(
///     NetworkRequest<Document>.upload(urlString: "documents", multipart: form),
///     successHandler: { response in show(response.value) },
///     errorHandler: { error in show(error.message) })
/// ```
///
/// Files are streamed from disk while the body is sent, with the body's exact `Content-Length`; quotes
/// and line breaks in names are percent-encoded as browsers do.
public struct MultipartFormData: Sendable, Equatable {
    /// The parts, in the order they were appended.
    public private(set) var parts: [Part] = []
    /// The boundary between parts: random, so it never occurs in the content.
    public let boundary: String

    /// An empty form with a random boundary.
    public init() {
        boundary = "NetworkLayer-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// An empty form with the given boundary (1 to 70 of letters, digits and `'()+_,-./:=?`), for tests
    /// that compare bodies byte for byte.
    ///
    /// - Parameter boundary: The boundary between parts; a random one by default.
    public init(boundary: String) {
        self.boundary = boundary
    }

    /// The request's `Content-Type`, the boundary quoted when it has one of `(),/:=?` (RFC 2045).
    public var contentType: String {
        let bare = boundary.utf8.allSatisfy { !"()<>@,;:\\\"/[]?=".utf8.contains($0) }
        return "multipart/form-data; boundary=" + (bare ? boundary : "\"\(boundary)\"")
    }

    /// Appends a text field.
    ///
    /// - Parameters:
    ///   - value: The field's text.
    ///   - name: The field's name.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, fileName: nil, mimeType: nil, content: .text(value)))
    }

    /// Appends bytes as a file called `fileName` of type `mimeType`.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - name: The field's name.
    ///   - fileName: The file name the server sees.
    ///   - mimeType: The part's `Content-Type`.
    public mutating func append(_ data: Data, name: String, fileName: String, mimeType: String) {
        parts.append(Part(name: name, fileName: fileName, mimeType: mimeType, content: .data(data)))
    }

    /// Appends a file from disk, read while the body is sent.
    ///
    /// - Parameters:
    ///   - fileURL: The file to send, streamed from disk.
    ///   - name: The field's name.
    ///   - fileName: The file name the server sees; the file's own name when `nil`.
    ///   - mimeType: The part's `Content-Type`; guessed from the file name when `nil`.
    public mutating func append(fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil)
    {
        parts.append(
            Part(
                name: name, fileName: fileName ?? fileURL.lastPathComponent,
                mimeType: mimeType ?? MediaTypes.guess(for: fileURL), content: .file(fileURL)))
    }

    /// One field or file of a form.
    public struct Part: Sendable, Equatable {
        /// The field's name.
        public let name: String
        /// The file name sent with a file part; `nil` for a text field.
        public let fileName: String?
        /// The part's `Content-Type`; `nil` for a text field.
        public let mimeType: String?
        /// What the part holds.
        public let content: Content

        /// Creates a part; test doubles use it to compare what was recorded.
        ///
        /// - Parameters:
        ///   - name: The field's name.
        ///   - fileName: The file name the server sees; the file's own name when `nil`.
        ///   - mimeType: The part's `Content-Type`; guessed from the file name when `nil`.
        ///   - content: The part's bytes or file.
        public init(name: String, fileName: String?, mimeType: String?, content: Content) {
            self.name = name
            self.fileName = fileName
            self.mimeType = mimeType
            self.content = content
        }

        /// What a part holds.
        public enum Content: Sendable, Equatable {
            /// A text field's value, sent as UTF-8.
            case text(String)
            /// Bytes in memory.
            case data(Data)
            /// A file on disk, read while the body is sent.
            case file(URL)
        }
    }
}
