/// Why ``MockServer/start()`` failed: the system call that failed and the `errno` it set.
public struct MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed, e.g. `"bind"`.
    public let operation: String
    /// The `errno` value the call left.
    public let code: Int32

    /// A readable summary, e.g. `bind failed (errno 98)`.
    public var description: String { "\(operation) failed (errno \(code))" }
}
