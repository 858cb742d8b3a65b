import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A logging layer an app might write: it overrides only `send`, the funnel, and calls `super.send`.
/// Whatever request method the app calls, the spy sees the request and its outcome.
final class LoggingNetworkLayer: NetworkLayer, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// One line per request (`METHOD urlString?query`) and one per outcome (`→ 200` or `→ error`).
    var log: [String] { lock.withLock { lines } }

    private func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    @discardableResult
    override func send<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let query = PercentEncodedQuery.of(request)
        append("\(request.method.rawValue) \(request.urlString)\(query.isEmpty ? "" : "?" + query)")
        return super.send(
            request,
            successHandler: { [self] response in
                append("→ \(response.statusCode)")
                successHandler(response)
            },
            errorHandler: { [self] error in
                append("→ \(error)")
                errorHandler(error)
            })
    }
}

/// The query a request's `query` and `queryItems` make, for the spy's log (unencoded: it is a log).
private enum PercentEncodedQuery {
    static func of<Value>(_ request: NetworkRequest<Value>) -> String {
        let sorted = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let items = request.queryItems.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return (sorted + items).joined(separator: "&")
    }
}

final class SubclassSpyTests: XCTestCase {
    private struct Remove: Endpoint {
        var path: String { "items/3" }
        var method: HTTPMethod { .delete }
    }

    private let note = Note(id: 5, text: "spy")

    func testASpyOverridingSendSeesEveryEntryPoint() throws {
        let server = try MockServer.funnel(in: self)
        let network = LoggingNetworkLayer(baseURL: server.url("/v1"), sessionConfiguration: .ephemeral)
        typealias Start = (LoggingNetworkLayer, OutcomeRecorder<Void>) -> NetworkTask
        let cases: [(String, Start)] = [
            (
                "GET items?page=2",
                { network, recorder in
                    network.get(
                        urlString: "items", query: ["page": "2"],
                        successHandler: { (_: Echo) in recorder.done() }, errorHandler: recorder.failure)
                }
            ),
            (
                "POST notes",
                { [note] network, recorder in
                    network.post(
                        urlString: "notes", body: note, successHandler: { (_: Echo) in recorder.done() },
                        errorHandler: recorder.failure)
                }
            ),
            (
                "POST notes/plain",
                { [note] network, recorder in
                    network.post(
                        urlString: "notes/plain", body: note, successHandler: recorder.done,
                        errorHandler: recorder.failure)
                }
            ),
            (
                "PUT notes/5",
                { [note] network, recorder in
                    network.put(
                        urlString: "notes/5", body: note, successHandler: recorder.done,
                        errorHandler: recorder.failure)
                }
            ),
            (
                "PATCH notes/5",
                { [note] network, recorder in
                    network.patch(
                        urlString: "notes/5", body: note, successHandler: { (_: Echo) in recorder.done() },
                        errorHandler: recorder.failure)
                }
            ),
            (
                "DELETE notes/5",
                { network, recorder in
                    network.delete(
                        urlString: "notes/5", successHandler: recorder.done, errorHandler: recorder.failure)
                }
            ),
            (
                "GET items/9?view=full",
                { network, recorder in
                    network.request(
                        ItemEndpoint(), successHandler: { (_: Echo) in recorder.done() },
                        errorHandler: recorder.failure)
                }
            ),
            (
                "DELETE items/3",
                { network, recorder in
                    network.request(Remove(), successHandler: recorder.done, errorHandler: recorder.failure)
                }
            ),
            (
                "GET items?ids=1&ids=2",
                { network, recorder in
                    let request = NetworkRequest<Echo>(
                        urlString: "items",
                        queryItems: [
                            URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "ids", value: "2"),
                        ])
                    return network.send(request) { result in
                        if case .failure(let error) = result {
                            recorder.failure(error)
                        } else {
                            recorder.done()
                        }
                    }
                }
            ),
        ]

        for (index, (expected, start)) in cases.enumerated() {
            let result = outcome(of: Void.self) { recorder in start(network, recorder) }
            XCTAssertNotNil(result?.value, "\(expected): \(String(describing: result))")
            let status = expected.hasPrefix("POST") ? 201 : 200
            XCTAssertEqual(Array(network.log.suffix(2)), [expected, "→ \(status)"], "case \(index)")
        }
        XCTAssertEqual(network.log.count, cases.count * 2, "\(network.log)")
        XCTAssertEqual(
            server.recordedRequests.map { "\($0.method) \($0.target)" },
            [
                "GET /v1/items?page=2", "POST /v1/notes", "POST /v1/notes/plain", "PUT /v1/notes/5",
                "PATCH /v1/notes/5", "DELETE /v1/notes/5",
                "GET /v1/items/9?view=full", "DELETE /v1/items/3", "GET /v1/items?ids=1&ids=2",
            ])
    }

    func testASpySeesFailuresAndRefusedRequestsToo() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 500, text: "down"))
        let network = LoggingNetworkLayer(baseURL: server.url("/v1"), sessionConfiguration: .ephemeral)

        let failed = outcome(of: [String].self) { recorder in
            network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let refused = outcome(of: Void.self) { recorder in
            network.delete(
                urlString: "items", headers: ["X-Bad\r\nInjected": "1"], successHandler: recorder.done,
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(failed?.error?.statusCode, 500, String(describing: failed))
        guard case .invalidHeader? = refused?.error else {
            return XCTFail("expected invalidHeader: \(String(describing: refused))")
        }
        XCTAssertEqual(network.log.count, 4, "\(network.log)")
        XCTAssertEqual(network.log.first, "GET items")
        XCTAssertEqual(network.log[2], "DELETE items")
        XCTAssertEqual(server.requestCount, 1, "the refused request was never sent")
    }
}
