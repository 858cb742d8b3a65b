import Foundation
import NetworkLayer
import NetworkTestSupport

/// What an async request ended in, as a value: `Task` results are untyped, and `NetworkError` is not
/// `Equatable`, so tests compare these.
func outcome<T>(
    isolation: isolated (any Actor)? = #isolation, of body: () async throws(NetworkError) -> T
) async -> Result<T, NetworkError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result where Failure == NetworkError {
    /// Whether this is the `.cancelled` failure.
    var isCancelled: Bool {
        guard case .failure(.cancelled) = self else { return false }
        return true
    }

    /// The success value, if any.
    var value: Success? { try? get() }
}

/// Waits, yielding, until `network` holds `count` requests; `false` after 5 seconds.
func waitForPendingRequests(_ network: DummyNetworkLayer, count: Int = 1) async -> Bool {
    await waitUntil { network.pendingRequests.count >= count }
}

/// Waits, yielding, until `condition` holds; `false` after `timeout` seconds. For a request made by a
/// task that has not run yet: nothing announces it, and yielding lets that task run.
func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        await Task.yield()
    }
    return true
}

/// The next request `server` receives, waited for on a dispatch queue rather than on the concurrency
/// pool, whose few threads must stay free to run the tasks under test.
func nextRequest(to server: MockServer, timeout: TimeInterval = 5) async -> MockServerRequest? {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: server.takeRequest(timeout: timeout)) }
    }
}
