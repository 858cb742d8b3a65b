import Foundation

/// A server an API runs on: its base URL and the headers every request to it carries.
///
/// Named so it never clashes with SwiftUI's `Environment`. Switching servers is making another layer:
///
/// ```swift
/// let staging = APIEnvironment(baseURL: URL(string: "https://staging.example.com/v1/")!)
/// let network = NetworkLayer(environment: staging)
/// ```
public struct APIEnvironment: Sendable, Equatable {
    /// The URL that endpoint paths are resolved against.
    public var baseURL: URL
    /// Headers sent with every request; an endpoint's or a call's own headers override them.
    public var headers: [String: String]

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - baseURL: The URL that endpoint paths are resolved against.
    ///   - headers: Headers for every request to this server, such as an API key.
    public init(baseURL: URL, headers: [String: String] = [:]) {
        self.baseURL = baseURL
        self.headers = headers
    }
}
