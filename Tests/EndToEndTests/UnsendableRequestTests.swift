import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that can't be sent as written is refused with a clear error before anything is sent, as
/// the caller built it or as an interceptor changed it.
final class UnsendableRequestTests: XCTestCase {
    /// Changes every attempt with `change`.
    private struct Change: RequestInterceptor {
        let change: @Sendable (inout URLRequest) -> Void
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            change(&request)
            completion(.success(request))
        }
    }

    private func error(
        _ server: MockServer, interceptors: [any RequestInterceptor] = [],
        _ start: (NetworkLayer, OutcomeRecorder<Data>) -> NetworkTask
    ) -> NetworkError? {
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5, interceptors: interceptors)
        return outcome(of: Data.self) { start(network, $0) }?.error
    }

    private func send(_ request: NetworkRequest<Data>) -> (NetworkLayer, OutcomeRecorder<Data>) -> NetworkTask
    {
        { network, recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
    }

    func testAnInterceptorsOddRequestIsRefusedBeforeSending() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let cases: [(String, @Sendable (inout URLRequest) -> Void, String)] = [
            (
                "method with a space", { $0.httpMethod = "GET X" },
                "The request method \"GET X\" is not valid."
            ),
            ("method with CR LF", { $0.httpMethod = "GET\r\nX-Evil: 1" }, "is not valid."),
            ("method with a colon", { $0.httpMethod = "GET:" }, "is not valid."),
            (
                "Content-Length contradicting the body",
                {
                    $0.httpMethod = "POST"
                    $0.httpBody = Data("0123456789".utf8)
                    $0.setValue("5", forHTTPHeaderField: "Content-Length")
                }, "Content-Length does not match"
            ),
            ("file: URL", { $0.url = URL(fileURLWithPath: "/etc/passwd") }, "not a valid web address"),
            ("data: URL", { $0.url = URL(string: "data:,hello") }, "not a valid web address"),
            ("a body on GET", { $0.httpBody = Data("x".utf8) }, "A GET request cannot carry a body."),
            (
                "a body on HEAD",
                {
                    $0.httpMethod = "HEAD"
                    $0.httpBody = Data("x".utf8)
                }, "A HEAD request cannot carry a body."
            ),
        ]
        for (name, change, message) in cases {
            let error = self.error(
                server, interceptors: [Change(change: change)], send(.init(urlString: "a")))
            XCTAssertTrue(
                error?.message.contains(message) == true || "\(String(describing: error))".contains(message),
                "\(name): \(String(describing: error))")
        }
        XCTAssertEqual(server.requestCount, 0, "nothing was sent")
    }

    func testAGetOrHeadWithABodyIsRefusedAsTheCallerBuiltIt() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)")
        try Data("file".utf8).write(to: file)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        let starts: [(String, (NetworkLayer, OutcomeRecorder<Data>) -> NetworkTask)] = [
            ("GET", send(NetworkRequest(method: .get, urlString: "a", body: .json(["a": 1])))),
            (
                "GET",
                send(
                    NetworkRequest(
                        method: .get, urlString: "a", body: .data(Data("x".utf8), contentType: "text/plain")))
            ),
            (
                "HEAD",
                send(
                    NetworkRequest(
                        method: .head, urlString: "a", body: .data(Data("x".utf8), contentType: "text/plain"))
                )
            ),
            ("HEAD", send(NetworkRequest(method: .head, urlString: "a", body: .form(["a": "b"])))),
            (
                "HEAD",
                { network, recorder in
                    network.send(
                        NetworkRequest<EmptyResponse>.upload(urlString: "a", method: .head, fileURL: file),
                        successHandler: { _ in recorder.success(Data()) },
                        errorHandler: recorder.failure)
                }
            ),
        ]
        for (method, start) in starts {
            let error = self.error(server, start)
            XCTAssertEqual(
                error?.message, "A \(method) request cannot carry a body.", String(describing: error))
        }
        XCTAssertEqual(server.requestCount, 0, "nothing was sent")
    }
}
