import NetworkLayer

/// A request ``DummyNetworkLayer`` did not record because the real layer would have refused to send it:
/// its URL was invalid, its body could not be encoded, or a header (its own or a default one) was invalid.
public struct RefusedRequest: Sendable, CustomStringConvertible {
    /// The HTTP method.
    public let method: HTTPMethod
    /// The URL string exactly as the caller passed it.
    public let urlString: String
    /// The error the error handler received, such as `.invalidURL`, `.encodingFailed` or `.invalidHeader`.
    public let error: NetworkError

    /// Creates a refused request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - urlString: The URL string exactly as the caller passed it.
    ///   - error: The error the error handler received.
    public init(method: HTTPMethod, urlString: String, error: NetworkError) {
        self.method = method
        self.urlString = urlString
        self.error = error
    }

    /// `METHOD urlString: error`, as a failing test wants to print it.
    public var description: String { "\(method.rawValue) \(urlString): \(error)" }
}
