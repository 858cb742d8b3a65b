import Foundation

/// Media types for the file extensions uploads meet most, so a file is labelled without the caller
/// naming its type; anything else is `application/octet-stream`.
enum MediaTypes {
    static func guess(for url: URL) -> String {
        types[url.pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let types: [String: String] = [
        "json": "application/json", "xml": "application/xml", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "txt": "text/plain", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "heic": "image/heic", "svg": "image/svg+xml", "mp3": "audio/mpeg",
        "m4a": "audio/mp4", "wav": "audio/wav", "mp4": "video/mp4", "mov": "video/quicktime",
    ]
}
