import Foundation
import NetworkLayer

/// What one request's handlers received; thread-safe, so handlers may run on any queue.
final class Captured<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValues: [Value] = []
    private var storedErrors: [NetworkError] = []
    private var returned = false
    private var storedRanBeforeReturn = false

    var values: [Value] { lock.withLock { storedValues } }
    var errors: [NetworkError] { lock.withLock { storedErrors } }
    /// `custom("...")`, `invalidURL("...")`, ...: `NetworkError` is not `Equatable`.
    var errorDescriptions: [String] { errors.map(\.description) }
    /// Whether a handler ran before ``markReturned()`` was called.
    var ranBeforeReturn: Bool { lock.withLock { storedRanBeforeReturn } }
    var count: Int { lock.withLock { storedValues.count + storedErrors.count } }

    var onHandler: () -> Void = {}

    var success: (Value) -> Void {
        { value in
            self.lock.withLock {
                self.storedValues.append(value)
                if !self.returned { self.storedRanBeforeReturn = true }
            }
            self.onHandler()
        }
    }

    var failure: (NetworkError) -> Void {
        { error in
            self.lock.withLock {
                self.storedErrors.append(error)
                if !self.returned { self.storedRanBeforeReturn = true }
            }
            self.onHandler()
        }
    }

    func markReturned() {
        lock.withLock { returned = true }
    }
}

extension Captured where Value == Void {
    var successCount: Int { values.count }
}

struct Person: Codable, Equatable {
    let name: String
    var age = 30
}
