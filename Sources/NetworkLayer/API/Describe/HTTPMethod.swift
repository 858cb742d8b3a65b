/// The HTTP request methods the layer sends.
public enum HTTPMethod: String, Sendable, CaseIterable {
    /// Retrieves a resource.
    case get = "GET"
    /// Creates a resource or submits data.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Partially updates a resource.
    case patch = "PATCH"
    /// Deletes a resource.
    case delete = "DELETE"
    /// Retrieves only the headers a GET would return.
    case head = "HEAD"
    /// Asks which methods and options a resource supports.
    case options = "OPTIONS"
}
