import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that sets one header field on every attempt, as given: the test targets' one way to
/// make an interceptor change a request.
public struct SettingHeader: RequestInterceptor {
    /// The field's name, as given (checked by the layer, not here).
    public let name: String
    /// The field's value, as given.
    public let value: String

    /// An interceptor setting `name` to `value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Sets the field and passes the request on.
    public func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        completion(.success(request))
    }
}
