import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A layer's default headers that carry credentials go only to its base URL's origin, as on a redirect;
/// an absolute URL elsewhere (two servers on 127.0.0.1 are two origins: their ports differ) gets the
/// other default headers only.
final class DefaultCredentialScopeTests: XCTestCase {
    private static let defaults = [
        "Authorization": "Bearer SECRET", "Cookie": "sid=SECRET", "X-Api-Key": "SECRET",
        "X-Auth-Token": "SECRET", "Proxy-Authorization": "Basic SECRET", "X-Tenant": "SECRET",
        "X-Client": "app",
    ]
    private static let credentials = [
        "Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Proxy-Authorization",
    ]

    private func get(_ network: NetworkLayer, _ urlString: String, headers: [String: String] = [:]) {
        let result = outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: urlString, headers: headers),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertNotNil(result?.value, "\(urlString): \(String(describing: result))")
    }

    func testDefaultCredentialsGoOnlyToTheBaseURLsOrigin() throws {
        let api = try MockServer.echoing(in: self)
        let elsewhere = try MockServer.echoing(in: self)
        let network = NetworkLayer(
            baseURL: api.url("/v1"), defaultHeaders: Self.defaults, sessionConfiguration: .ephemeral,
            timeout: 5, redirectPolicy: RedirectPolicy(credentialHeaders: ["x-tenant"]))

        get(network, "items")
        get(network, "http://127.0.0.1:\(api.port)/other")
        get(network, "http://127.0.0.1:\(elsewhere.port)/file")

        XCTAssertEqual(api.recordedRequests.count, 2)
        for request in api.recordedRequests {
            for name in Self.credentials + ["X-Tenant"] {
                XCTAssertNotNil(
                    request.header(name), "\(request.path): \(name) goes to the base URL's origin")
            }
        }
        let other = try XCTUnwrap(elsewhere.recordedRequests.first)
        for name in Self.credentials + ["X-Tenant"] {
            XCTAssertNil(other.header(name), "\(name) went to another origin")
        }
        XCTAssertEqual(other.header("X-Client"), "app", "other default headers still go")
        XCTAssertFalse(String(decoding: other.rawHead, as: UTF8.self).contains("SECRET"))
    }

    func testARequestsOwnCredentialsGoWhereTheCallerSendsThem() throws {
        let api = try MockServer.echoing(in: self)
        let elsewhere = try MockServer.echoing(in: self)
        let network = NetworkLayer(
            baseURL: api.baseURL, defaultHeaders: Self.defaults, sessionConfiguration: .ephemeral, timeout: 5)

        get(network, "http://127.0.0.1:\(elsewhere.port)/file", headers: ["Authorization": "Bearer PARTNER"])

        let other = try XCTUnwrap(elsewhere.recordedRequests.first)
        XCTAssertEqual(other.header("Authorization"), "Bearer PARTNER")
        XCTAssertNil(other.header("Cookie"))
    }

    /// Without a base URL, the credentials keep to the first request's origin, as a
    /// `BearerTokenAuthenticator`'s token does.
    func testWithoutABaseURLTheyKeepToTheFirstRequestsOrigin() throws {
        let api = try MockServer.echoing(in: self)
        let elsewhere = try MockServer.echoing(in: self)
        let network = NetworkLayer(
            defaultHeaders: Self.defaults, sessionConfiguration: .ephemeral, timeout: 5)

        get(network, "http://127.0.0.1:\(api.port)/first")
        get(network, "http://127.0.0.1:\(elsewhere.port)/file")
        get(network, "http://127.0.0.1:\(api.port)/again")

        XCTAssertEqual(
            api.recordedRequests.map { $0.header("Authorization") }, ["Bearer SECRET", "Bearer SECRET"])
        let other = try XCTUnwrap(elsewhere.recordedRequests.first)
        XCTAssertNil(other.header("Authorization"))
        XCTAssertNil(other.header("X-Api-Key"))
        XCTAssertEqual(other.header("X-Client"), "app")
    }
}
