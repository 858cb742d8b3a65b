/// How soon a request should go out when requests wait for a server (see ``RequestScheduling``): waiting
/// requests start highest priority first, in the order they were made within one priority.
///
/// ```swift
/// var thumbnail = NetworkRequest<Data>(urlString: "thumbnails/42")
/// thumbnail.priority = .prefetch
/// ```
///
/// The values are `URLSessionTask.priority`'s scale (0 to 1), and on Apple platforms each request's task
/// gets its priority; on Linux that property has no effect, and only the layer's own order counts.
public struct RequestPriority: Sendable, Hashable, Comparable {
    /// From 0 (lowest) to 1 (highest).
    public let rawValue: Float

    /// A priority on `URLSessionTask.priority`'s scale.
    ///
    /// - Parameter rawValue: From 0 (lowest) to 1 (highest); a value outside is clamped, NaN is ``default``.
    public init(rawValue: Float) {
        self.rawValue = rawValue.isNaN ? 0.5 : min(1, max(0, rawValue))
    }

    /// What the user is waiting for now (a tap's result): `URLSessionTask.highPriority`.
    public static let userInitiated = RequestPriority(rawValue: 0.75)
    /// Every request's priority unless it says otherwise: `URLSessionTask.defaultPriority`.
    public static let `default` = RequestPriority(rawValue: 0.5)
    /// Work the user may never need (thumbnails below the fold): `URLSessionTask.lowPriority`.
    public static let prefetch = RequestPriority(rawValue: 0.25)

    /// Whether `lhs` goes out after `rhs` when both wait.
    ///
    /// - Parameters:
    ///   - lhs: A priority.
    ///   - rhs: Another priority.
    /// - Returns: `true` when `lhs` is the lower.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
