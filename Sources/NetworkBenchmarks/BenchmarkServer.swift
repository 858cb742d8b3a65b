import Foundation
import NetworkTestSupport

/// The embedded server: the routes the nginx configurations also serve (`nginx/routes.conf`).
enum BenchmarkServer {
    static func start() throws -> MockServer {
        let small = MockResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: Fixtures.small)
        let large = MockResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: Fixtures.large)
        let echo = MockResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: Fixtures.echoReply)
        // The cache's routes: the small reply, fresh for an hour, or always revalidated by its ETag.
        let fresh = small.cacheControl("max-age=3600")
        let validated = small.cacheControl("no-cache").etag("\"small-1\"")
        let server = MockServer { request in
            switch (request.method, request.path) {
            case ("GET", "/small.json"): small
            case ("GET", "/fresh.json"): fresh
            case ("GET", "/etag.json"): validated.notModified(ifMatching: request)
            case ("GET", "/large.json"): large
            case ("POST", "/echo"): echo
            default: MockResponse(status: 404)
            }
        }
        try server.start()
        return server
    }
}
