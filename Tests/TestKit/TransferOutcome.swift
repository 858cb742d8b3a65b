import Foundation
import NetworkLayer
import XCTest

extension XCTestCase {
    /// Runs `start` (a transfer store's `send` or `resume`) with a success and an error handler, and waits
    /// for one of them.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for a handler.
    ///   - start: Starts the transfer with the two handlers.
    /// - Returns: The upload's URL or the downloaded file, or the failure; `nil` when no handler ran.
    public func transferOutcome(
        timeout: TimeInterval = 60,
        _ start: (@escaping (NetworkResponse<URL>) -> Void, @escaping (NetworkError) -> Void) throws -> Void
    ) throws -> Result<URL, NetworkError>? {
        let ended = expectation(description: "a handler runs")
        let outcome = Locked<Result<URL, NetworkError>?>(nil)
        try start(
            { response in
                outcome.withLock { $0 = .success(response.value) }
                ended.fulfill()
            },
            { error in
                outcome.withLock { $0 = .failure(error) }
                ended.fulfill()
            })
        wait(for: [ended], timeout: timeout)
        return outcome.withLock { $0 }
    }
}
