import Foundation

/// The destinations downloads are writing to in this process: two downloads to one destination would
/// write into the same partial file, so the second is refused while the first is alive. One started
/// while the download holding its destination is being cancelled waits instead, and gets the
/// destination once that one has closed its file.
enum DownloadClaims {
    /// What a download asking for its destination is told.
    enum Outcome {
        /// The destination is the download's.
        case claimed
        /// It will be, once the cancelled downloads ahead give it up: then the download's start runs.
        case waiting
        /// A live download holds it, or waits for it.
        case busy
    }

    private struct Holder {
        let id: ObjectIdentifier
        /// Whether its request is over (cancelled) while its transfer may still hold the file.
        let isAbandoned: @Sendable () -> Bool
    }

    private struct Claim {
        var holder: Holder
        /// The downloads waiting for the destination, in order, each with what starts it.
        var waiting: [(holder: Holder, start: @Sendable () -> Void)] = []
    }

    private static let claims = Locked([String: Claim]())

    /// Claims `destination` for `owner`, or queues `owner` behind cancelled downloads holding it (then
    /// `start` runs once it is `owner`'s, on the thread that gave it up).
    ///
    /// - Parameters:
    ///   - destination: Where the download goes.
    ///   - owner: The download's sink, which gives the destination up with ``release(_:by:)``.
    ///   - isAbandoned: Whether the owner's request is over while it still holds the destination.
    ///   - start: What starts the owner once it gets the destination after waiting.
    /// - Returns: Whether the destination is the owner's now, later, or not at all.
    static func claim(
        _ destination: URL, for owner: AnyObject, isAbandoned: @escaping @Sendable () -> Bool,
        whenGivenUp start: @escaping @Sendable () -> Void
    ) -> Outcome {
        let holder = Holder(id: ObjectIdentifier(owner), isAbandoned: isAbandoned)
        return claims.withLock { claims in
            guard var claim = claims[destination.path] else {
                claims[destination.path] = Claim(holder: holder)
                return .claimed
            }
            if claim.holder.id == holder.id { return .claimed }
            // Only when every download ahead is on its way out is this one the only live download.
            guard claim.holder.isAbandoned(), claim.waiting.allSatisfy({ $0.holder.isAbandoned() }) else {
                return .busy
            }
            claim.waiting.append((holder, start))
            claims[destination.path] = claim
            return .waiting
        }
    }

    /// Gives `destination` up if `owner` holds it: to the first download waiting for it, which starts.
    static func release(_ destination: URL, by owner: AnyObject) {
        let next: (@Sendable () -> Void)? = claims.withLock { claims in
            guard var claim = claims[destination.path], claim.holder.id == ObjectIdentifier(owner) else {
                return nil
            }
            guard !claim.waiting.isEmpty else {
                claims[destination.path] = nil
                return nil
            }
            let next = claim.waiting.removeFirst()
            claim.holder = next.holder
            claims[destination.path] = claim
            return next.start
        }
        next?()
    }
}
