import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// What one stream delivered: its elements in order and its one completion, recorded on the callback
/// queue; a second completion or an element after the completion is recorded as a violation.
final class StreamRecording<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedElements: [Element] = []
    private var storedOutcomes: [Result<StreamSummary, NetworkError>] = []
    private var storedViolations: [String] = []
    let completed: XCTestExpectation

    init(_ completed: XCTestExpectation) {
        self.completed = completed
    }

    var elements: [Element] { lock.withLock { storedElements } }
    var outcome: Result<StreamSummary, NetworkError>? { lock.withLock { storedOutcomes.first } }
    var outcomeCount: Int { lock.withLock { storedOutcomes.count } }
    var violations: [String] { lock.withLock { storedViolations } }

    func receive(_ element: Element) {
        lock.withLock {
            if !storedOutcomes.isEmpty { storedViolations.append("an element after the completion") }
            storedElements.append(element)
        }
    }

    func finish(_ outcome: Result<StreamSummary, NetworkError>) {
        let first = lock.withLock {
            storedOutcomes.append(outcome)
            if storedOutcomes.count > 1 { storedViolations.append("a second completion") }
            return storedOutcomes.count == 1
        }
        if first { completed.fulfill() }
    }
}

extension XCTestCase {
    /// Streams `request` on `network` and waits for its completion.
    @discardableResult
    func record<Element>(
        _ network: NetworkLayer, _ request: NetworkRequest<Data>, as format: StreamFormat<Element>,
        options: ServerSentEventsOptions? = nil, timeout: TimeInterval = 10,
        onElement: ((Element, NetworkTask?) -> Void)? = nil
    ) -> StreamRecording<Element> {
        let recording = StreamRecording<Element>(expectation(description: "stream completes"))
        nonisolated(unsafe) var task: NetworkTask?
        task = network.stream(
            request, as: format, options: options,
            eventHandler: { element in
                recording.receive(element)
                onElement?(element, task)
            },
            completionHandler: recording.finish)
        wait(for: [recording.completed], timeout: timeout)
        XCTAssertEqual(recording.violations, [])
        return recording
    }
}

struct Token: Codable, Equatable, Sendable {
    var index: Int
    var text: String
}
