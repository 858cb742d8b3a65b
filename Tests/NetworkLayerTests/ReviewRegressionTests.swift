import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// Regressions found in review: each test fails if its fix is undone.
final class ReviewRegressionTests: XCTestCase {
    private let stubs = StubTransport()
    private lazy var network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com/v1"))

    private func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: @escaping () -> Bool) {
        let predicate = NSPredicate { _, _ in condition() }
        wait(for: [XCTNSPredicateExpectation(predicate: predicate, object: nil)], timeout: timeout)
        XCTAssertTrue(condition(), what)
    }

    func testUnusableTimeoutsAreReplacedNotPassedOn() throws {
        let cases: [(TimeInterval?, layer: TimeInterval, expected: TimeInterval)] = [
            (nil, 30, 30), (5, 30, 5), (.infinity, 30, RequestBuilder.longestTimeout),
            (1e300, 30, RequestBuilder.longestTimeout), (.nan, 30, 30), (0, 30, 30), (-1, 30, 30),
            (nil, .infinity, RequestBuilder.longestTimeout), (nil, .nan, 60), (nil, 0, 60),
        ]
        for (requestTimeout, layerTimeout, expected) in cases {
            let layer = NetworkLayer(baseURL: URL(string: "https://api.example.com"), timeout: layerTimeout)
            let request = try layer.builder.urlRequest(
                for: NetworkRequest<EmptyResponse>(method: .get, urlString: "x", timeout: requestTimeout))
            XCTAssertEqual(
                request.timeoutInterval, expected,
                "request \(String(describing: requestTimeout)), layer \(layerTimeout)")
        }
    }

    func testHandlersAreReleasedOnceDeliveredEvenWhenTheTaskIsKept() {
        stubs.stub(.get, .any, with: .json(["a"]))
        weak var weakCapture: Captured?
        var keptTask: NetworkTask?
        let done = expectation(description: "delivered")
        do {
            let captured = Captured()
            weakCapture = captured
            keptTask = network.get(
                urlString: "a",
                successHandler: { (_: [String]) in
                    captured.touch()
                    done.fulfill()
                },
                errorHandler: { _ in
                    captured.touch()
                    done.fulfill()
                })
        }
        wait(for: [done], timeout: 10)
        waitUntil("handlers still retained by the kept task") { weakCapture == nil }
        XCTAssertNotNil(keptTask)
    }

    func testCancelReachesTheTransportAndReleasesTheHandlers() {
        stubs.stub(.get, .any, with: .json(["late"], delay: 30))
        weak var weakCapture: Captured?
        let done = expectation(description: "cancelled")
        do {
            let captured = Captured()
            weakCapture = captured
            let task = network.get(
                urlString: "slow", successHandler: { (_: [String]) in captured.touch() },
                errorHandler: { error in
                    captured.touch()
                    if case .cancelled = error { done.fulfill() }
                })
            task.cancel()
        }
        wait(for: [done], timeout: 10)
        waitUntil("the stub never saw the cancel") { self.stubs.cancelledRequests.count == 1 }
        waitUntil("handlers retained after cancel") { weakCapture == nil }
    }

    func testAStubConfigurationNeverFallsThroughToTheNetwork() {
        // A layer from `makeNetworkLayer` keeps its transport; one built on the bare configuration doesn't.
        var transport: StubTransport? = StubTransport()
        let orphan = NetworkLayer(
            baseURL: URL(string: "http://127.0.0.1:9"), sessionConfiguration: transport!.makeConfiguration())
        transport = nil
        let error = outcome(of: [String].self) {
            orphan.get(urlString: "x", successHandler: $0.success, errorHandler: $0.failure)
        }?.error
        guard case .transport(let urlError)? = error else {
            return XCTFail("gave \(String(describing: error))")
        }
        XCTAssertEqual(urlError.code, .unsupportedURL)
        XCTAssertTrue("\(error!)".contains("deallocated"), "\(error!)")
    }

    func testManyTransportsEachAnswerTheirOwnRequests() {
        let transports = (0..<37).map { _ in StubTransport() }
        for (index, transport) in transports.enumerated() {
            transport.stub(.get, .any, with: .json([index]))
        }
        for (index, transport) in transports.enumerated() {
            let layer = transport.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
            let result = outcome(of: [Int].self) {
                layer.get(urlString: "n", successHandler: $0.success, errorHandler: $0.failure)
            }
            XCTAssertEqual(result?.value, [index])
        }
    }

    func testTheBodysContentTypeBeatsADefaultOne() throws {
        let layer = NetworkLayer(
            environment: APIEnvironment(
                baseURL: try XCTUnwrap(URL(string: "https://api.example.com")),
                headers: ["Content-Type": "application/json", "accept": "text/plain"]))
        let form = try layer.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(method: .post, urlString: "f", body: .form(["a": "1"])))
        XCTAssertEqual(
            form.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8"
        )
        XCTAssertEqual(form.value(forHTTPHeaderField: "Accept"), "text/plain")
        let explicit = try layer.builder.urlRequest(
            for: NetworkRequest<EmptyResponse>(
                method: .post, urlString: "f", headers: ["content-type": "application/merge-patch+json"],
                body: .json(["a": 1])))
        XCTAssertEqual(explicit.value(forHTTPHeaderField: "Content-Type"), "application/merge-patch+json")
    }

    func testDotSegmentsAreRefusedHoweverTheyAreSpelled() {
        let resolver = URLResolver(baseURL: URL(string: "https://api.example.com/v1"))
        for path in [
            "../admin", "%2E%2E/admin", ".%2e/admin", "..;/admin", "users/%2e%2E/..", "a/../../b",
            "..%2Fadmin",
            "files/..%2F..%2Fadmin", "..%5Cadmin", "files/x%2F..%2Fy",
        ] {
            XCTAssertThrowsError(try resolver.url(for: path), path)
            XCTAssertThrowsError(try resolver.url(for: path, requiringPath: true), path)
        }
        XCTAssertEqual(
            try resolver.url(for: "a..b/...").absoluteString, "https://api.example.com/v1/a..b/...")
        XCTAssertEqual(
            try resolver.url(for: "/documents:batchGet").absoluteString,
            "https://api.example.com/v1/documents:batchGet")
    }

    func testNoContentRepliesIgnoreAnyBodyTheServerSent() {
        let garbage = Data("not json".utf8)
        for status in [204, 205] {
            stubs.stub(nil, .any, with: StubResponse(status: status, body: garbage))
            XCTAssertNotNil(
                outcome(of: Void.self) {
                    network.delete(urlString: "x", successHandler: $0.done, errorHandler: $0.failure)
                }?.value, "\(status)")
            let error = outcome(of: [String].self) {
                network.get(urlString: "x", successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard case .emptyResponse? = error else {
                return XCTFail("\(status) gave \(String(describing: error))")
            }
        }
        stubs.stub(.head, .any, with: StubResponse(status: 200, body: garbage))
        let head = outcome(of: Void.self) { recorder in
            network.send(
                NetworkRequest<EmptyResponse>(method: .head, urlString: "h"),
                successHandler: { _ in recorder.done() }, errorHandler: recorder.failure)
        }
        XCTAssertNotNil(head?.value)
        let headDecoded = outcome(of: [String].self) { recorder in
            network.send(
                NetworkRequest<[String]>(method: .head, urlString: "h"),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }?.error
        guard case .emptyResponse? = headDecoded else {
            return XCTFail("HEAD gave \(String(describing: headDecoded))")
        }
    }

    func testEmptyResponseAcceptsATextBody() {
        stubs.stub(.post, .any, with: StubResponse(status: 200, body: Data("OK".utf8)))
        let result = outcome(of: EmptyResponse.self) {
            network.post(urlString: "x", body: ["a": 1], successHandler: $0.success, errorHandler: $0.failure)
        }
        XCTAssertEqual(result?.value, EmptyResponse())
    }

    func testCancelAfterTheOutcomeIsDecidedButBeforeDeliveryWins() {
        let queue = DispatchQueue(label: "held")
        QueueMark.mark(queue, as: "held")
        let layer = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), callbackQueue: queue)
        stubs.stub(.get, .any, with: .json(["a"]))
        queue.suspend()
        var started: RequestTask?
        let error = outcome(of: [String].self, on: queue, queueName: "held") { recorder in
            let task = layer.get(
                urlString: "p", successHandler: recorder.success, errorHandler: recorder.failure)
            started = task as? RequestTask
            return task
        } beforeWaiting: {
            self.waitUntil("the outcome was never decided") { started?.isSettled == true }
            started?.cancel()
            queue.resume()
        }?.error
        guard case .cancelled? = error else { return XCTFail("gave \(String(describing: error))") }
    }

    /// A leak check. (Whether the session was invalidated is not observable here: on Linux a session
    /// that is never invalidated releases its delegate too.)
    func testAnOwnedSessionReleasesItsDelegateWhenItsLayerGoesAway() {
        weak var delegate: AnyObject?
        do {
            let layer = stubs.makeNetworkLayer()
            delegate = layer.transport.delegate
            XCTAssertNotNil(delegate)
        }
        waitUntil("the owned session's delegate leaked") { delegate == nil }
    }

    func testAnOwnedSessionsLayerIsReleasedWhileItsRequestFinishes() {
        stubs.stub(.get, .any, with: .json(["still here"], delay: 0.2))
        weak var weakLayer: NetworkLayer?
        let result = outcome(of: [String].self) { recorder in
            let layer = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
            weakLayer = layer
            return layer.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertNil(weakLayer, "a request in flight kept its layer alive")
        XCTAssertEqual(result?.value, ["still here"])
    }
}

/// Something handlers capture, so a test can watch it being released.
final class Captured: @unchecked Sendable {
    func touch() {}
}
