import NetworkLayer

/// One answer of a per-request stub on ``DummyNetworkLayer``.
///
/// ```swift
/// network.stub(.get, "/flaky", outcomes: [.failure("offline"), .success(Employee(name: "Cy"))])
/// ```
///
/// `.failure("offline")` compiles because `NetworkError` is expressible by a string literal; it means
/// `.failure(.custom("offline"))`.
public enum DummyOutcome {
    /// The success handler receives this value. A request expecting `T` needs a value whose dynamic
    /// type is `T`; any other type fails the request with a `.custom` error naming both types. A request
    /// with a `() -> Void` success handler, or expecting `EmptyResponse`, succeeds whatever the value
    /// (`EmptyResponse()` reads well).
    case success(Any)
    /// Like ``success(_:)``, with the status and headers the `NetworkResponse` forms receive.
    case response(Any, statusCode: Int, headers: [String: String])
    /// The error handler receives this error.
    case failure(NetworkError)
    /// Like ``response(_:statusCode:headers:)``, as if the layer's cache had answered: the response's
    /// `cacheStatus` is `cacheStatus`, to test an "offline, showing saved data" banner. The status and
    /// headers are those of the stored reply, such as the `Link` header a "Load more" button reads.
    case cached(Any, cacheStatus: CacheStatus, statusCode: Int = 200, headers: [String: String] = [:])
}
