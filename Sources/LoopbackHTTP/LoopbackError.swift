/// Why a loopback server could not start: the system call that failed and the `errno` it set.
package struct LoopbackError: Error, Sendable, Equatable {
    /// The system call that failed, e.g. `"bind"`.
    package let operation: String
    /// The `errno` value the call left.
    package let code: Int32

    package init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }
}
