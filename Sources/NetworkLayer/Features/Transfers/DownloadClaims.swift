import Foundation

/// The destinations downloads are writing to in this process: a second download to one is refused while
/// the first is alive (they would share the partial file), but waits if the first is being cancelled.
enum DownloadClaims {
    enum Outcome {
        case claimed
        /// Once the cancelled downloads ahead give it up: then the download's start runs.
        case waiting
        case busy
    }

    private struct Holder {
        let id: ObjectIdentifier
        /// Whether its request is over while its transfer may still hold the file.
        let isAbandoned: @Sendable () -> Bool
    }

    private struct Claim {
        var holder: Holder
        var waiting: [(holder: Holder, start: @Sendable () -> Void)] = []
    }

    private static let claims = Locked([String: Claim]())

    /// Claims `destination` for `owner` (which gives it up with ``release(_:by:)``), or queues it behind
    /// cancelled downloads holding it; `start` then runs on the thread that gave it up.
    static func claim(
        _ destination: URL, for owner: AnyObject, isAbandoned: @escaping @Sendable () -> Bool,
        whenGivenUp start: @escaping @Sendable () -> Void
    ) -> Outcome {
        let holder = Holder(id: ObjectIdentifier(owner), isAbandoned: isAbandoned)
        return claims.withLock { claims in
            guard let claim = claims[destination.path] else {
                claims[destination.path] = Claim(holder: holder)
                return .claimed
            }
            if claim.holder.id == holder.id { return .claimed }
            // Only when every download ahead is on its way out is this one the only live download.
            guard claim.holder.isAbandoned(), claim.waiting.allSatisfy({ $0.holder.isAbandoned() }) else {
                return .busy
            }
            claims[destination.path]?.waiting.append((holder, start))
            return .waiting
        }
    }

    /// Gives `destination` up if `owner` holds it, to the first waiting download, which starts.
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
