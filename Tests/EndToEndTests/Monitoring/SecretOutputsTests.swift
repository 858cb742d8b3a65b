import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Distinctive secrets in every position a request and its reply can carry them, searched byte by byte
/// in everything the layer writes: logger lines at every level, curl commands, HAR files, and the
/// errors handed out in every representation.
final class SecretOutputsTests: XCTestCase {
    /// Each is unique, so a hit names the position that leaked.
    private static let secrets = [
        "FRAGMENT-SECRET-1", "QUERY-SECRET-2", "XAUTH-SECRET-3", "REQUEST-BODY-SECRET-4",
        "REPLY-SECRET-5", "REPLY-SECRET-6", "ERROR-BODY-SECRET-7", "LOCATION-SECRET-8",
        "INTERCEPTOR-SECRET-9", "USERINFO-SECRET-10", "SETCOOKIE-SECRET-11", "APIKEY-SECRET-12",
    ]

    /// Adds an API key as a query item to every attempt, as an app's signing interceptor might.
    private struct APIKeyQuery: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            guard let url = request.url,
                var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            else { return completion(.success(request)) }
            components.queryItems =
                (components.queryItems ?? []) + [
                    URLQueryItem(name: "api_key", value: "INTERCEPTOR-SECRET-9")
                ]
            request.url = components.url
            completion(.success(request))
        }
    }

    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var all: [String] { lock.withLock { stored } }
        func add(_ line: String) { lock.withLock { stored.append(line) } }
    }

    private func leaks(in text: String) -> [String] {
        Self.secrets.filter { text.contains($0) }
    }

    func testNoSecretLeavesThroughAnyOutput() throws {
        let server = try MockServer.started(in: self) { request in
            switch request.path {
            case "/login":
                return MockResponse(status: 302, headers: ["Location": "/next?token=LOCATION-SECRET-8"])
            case "/next":
                return MockResponse(
                    status: 200,
                    headers: ["Content-Type": "application/json", "Set-Cookie": "s=SETCOOKIE-SECRET-11"],
                    body: Data(
                        #"{"access_token": "REPLY-SECRET-5", "refresh_token":"REPLY-SECRET-6", "n": 1}"#.utf8)
                )
            default:
                return MockResponse(
                    status: 401,
                    headers: ["Content-Type": "application/json", "Set-Cookie": "s=SETCOOKIE-SECRET-11"],
                    body: Data(#"{"error": "nope", "password": "ERROR-BODY-SECRET-7"}"#.utf8))
            }
        }
        let lines = Lines()
        let loggers = [NetworkLogger.Level.errors, .requests, .full].map { level in
            NetworkLogger(level: level, sink: { lines.add("\(level): \($0)") })
        }
        let recorder = HARRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL,
            defaultHeaders: ["X-Auth-Token": "XAUTH-SECRET-3", "X-Api-Key": "APIKEY-SECRET-12"],
            sessionConfiguration: .ephemeral, timeout: 5, interceptors: [APIKeyQuery()],
            monitors: loggers + [recorder])
        var errors: [NetworkError] = []

        let login = outcome(of: Data.self) { recorder in
            network.send(
                NetworkRequest<Data>(
                    method: .post,
                    urlString: "login?access_token=QUERY-SECRET-2#access_token=FRAGMENT-SECRET-1",
                    body: .json(["password": "REQUEST-BODY-SECRET-4", "user": "ann"])),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertNotNil(login?.value, String(describing: login))
        let failed = outcome(of: Data.self) { recorder in
            network.send(
                NetworkRequest<Data>(
                    method: .put, urlString: "fail?access_token=QUERY-SECRET-2",
                    body: .json(["password": "REQUEST-BODY-SECRET-4"])),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        errors += [try XCTUnwrap(failed?.error)]
        // Nothing listens on port 1: a transport error whose URL has user-info and query values.
        let refused = outcome(of: Data.self) { recorder in
            network.send(
                NetworkRequest<Data>(
                    urlString: "http://ann:USERINFO-SECRET-10@127.0.0.1:1/x?access_token=QUERY-SECRET-2"),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        errors += [try XCTUnwrap(refused?.error)]
        XCTAssertTrue(recorder.waitForEntries(2, timeout: 5))
        let drained = expectation(description: "monitors drained")
        // real wait: a negative check; a late monitor entry would arrive within it
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { drained.fulfill() }
        wait(for: [drained], timeout: 5)

        let logText = lines.all.joined(separator: "\n")
        XCTAssertEqual(leaks(in: logText), [], logText)
        XCTAssertTrue(logText.contains("curl "), "a curl command was written:\n\(logText)")
        XCTAssertTrue(
            lines.all.contains { $0.hasPrefix("requests: ✓") && $0.contains("api_key=<redacted>") },
            "the request line shows the URL as sent, the interceptor's item redacted:\n\(logText)")
        let har = String(decoding: try JSONEncoder().encode(recorder.archive), as: UTF8.self)
        XCTAssertEqual(leaks(in: har), [], har)
        for error in errors {
            var dumped = ""
            dump(error, to: &dumped)
            for text in [dumped, String(reflecting: error), String(describing: error), error.message] {
                XCTAssertEqual(leaks(in: text), [], text)
            }
            if case .transport(let urlError) = error {
                var dumpedURLError = ""
                dump(urlError, to: &dumpedURLError)
                XCTAssertEqual(leaks(in: dumpedURLError + "\(urlError.userInfo)"), [], dumpedURLError)
            }
        }
    }

    func testEveryErrorIsCleanInEveryRepresentation() {
        let secretURL =
            "https://ann:USERINFO-SECRET-10@api.example.com/x?token=QUERY-SECRET-2#access_token=FRAGMENT-SECRET-1"
        let transport = URLError(
            .cannotConnectToHost,
            userInfo: [
                NSURLErrorFailingURLErrorKey: URL(string: secretURL)!,
                NSLocalizedDescriptionKey: "Could not connect to \(secretURL)",
            ])
        let errors: [NetworkError] = [
            .invalidURL(secretURL), .custom("see \(secretURL)"), .invalidHeader("X-Auth-Token"),
            .unacceptableStatusCode(
                401, body: Data("ERROR-BODY-SECRET-7".utf8), headers: ["Set-Cookie": "SETCOOKIE-SECRET-11"]),
            .unacceptableContentType(
                "text/html", body: Data("ERROR-BODY-SECRET-7".utf8),
                headers: ["Set-Cookie": "SETCOOKIE-SECRET-11"]),
            .decodingFailed(URLError(.unknown), body: Data("REPLY-SECRET-5".utf8)),
            .invalidRequest("A GET request cannot carry a body."), .timedOut, .cancelled, .emptyResponse,
            .invalidResponse, .transport(transport), .encodingFailed(transport),
        ]
        for error in errors {
            var dumped = ""
            dump(error, to: &dumped)
            for text in [dumped, String(reflecting: error), String(describing: error), error.message] {
                XCTAssertEqual(leaks(in: text), [], text)
            }
        }
    }
}
