import Foundation

/// The destinations downloads are writing to in this process: two downloads to one destination would
/// write into the same partial file, so the second is refused until the first ends or is cancelled.
enum DownloadClaims {
    private static let owners = Locked([String: ObjectIdentifier]())

    /// Claims `destination` for `owner`; `false` if another owner holds it.
    static func claim(_ destination: URL, for owner: AnyObject) -> Bool {
        owners.withLock { owners in
            let id = ObjectIdentifier(owner)
            if let current = owners[destination.path], current != id { return false }
            owners[destination.path] = id
            return true
        }
    }

    /// Releases `destination` if `owner` holds it.
    static func release(_ destination: URL, by owner: AnyObject) {
        owners.withLock { owners in
            if owners[destination.path] == ObjectIdentifier(owner) { owners[destination.path] = nil }
        }
    }
}
