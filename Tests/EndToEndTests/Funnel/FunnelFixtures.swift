import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Every request method of `NetworkLayer`, by name, so a test can drive them all through one switch.
enum EntryPoint: String, CaseIterable {
    case get, post, put, patch, delete, endpoint

    var method: HTTPMethod {
        switch self {
        case .get, .endpoint: .get
        case .post: .post
        case .put: .put
        case .patch: .patch
        case .delete: .delete
        }
    }
}

/// A GET endpoint with a query, for the endpoint entry points.
struct ItemEndpoint: Endpoint {
    var path: String { "items/9" }
    var method: HTTPMethod { .get }
    var query: [String: String] { ["view": "full"] }
}

/// The body the body-carrying entry points send.
struct Note: Codable, Equatable {
    var id: Int
    var text: String
}

extension MockServer {
    /// A started server that answers every request with its ``Echo`` and the headers a list endpoint
    /// sends (`X-Total-Count: 42`, `ETag: "v2"`), with 201 for a POST; `…/start` redirects with 302 to
    /// `…/target`. Stopped when the test ends.
    static func funnel(in test: XCTestCase) throws -> MockServer {
        try started(in: test) { request in
            if request.path.hasSuffix("/start") {
                let target = String(request.path.dropLast("start".count)) + "target"
                return MockResponse(status: 302, headers: ["Location": target], text: "moved")
            }
            return try .json(
                Echo(request), status: request.method == "POST" ? 201 : 200,
                headers: ["X-Total-Count": "42", "ETag": "\"v2\""])
        }
    }
}

extension NetworkLayer {
    /// Sends the request `entry` stands for to `path` through `send`, which gives the whole
    /// `NetworkResponse`; the body-carrying ones send `note`.
    func start<R: Decodable & SendableMetatype>(
        _ entry: EntryPoint, _ path: String, note: Note = Note(id: 1, text: "a"),
        successHandler: @escaping (NetworkResponse<R>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let request: NetworkRequest<R> =
            switch entry {
            case .get, .delete: NetworkRequest(method: entry.method, urlString: path)
            case .post, .put, .patch: NetworkRequest(method: entry.method, urlString: path, body: .json(note))
            case .endpoint: NetworkRequest(ItemEndpoint())
            }
        return send(request, successHandler: successHandler, errorHandler: errorHandler)
    }
}
