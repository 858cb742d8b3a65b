import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Content-type validation: off unless a request (or its endpoint) names the media types it accepts;
/// then a 2xx reply of another type fails with `.unacceptableContentType`, carrying body and headers.
final class ContentTypeTests: XCTestCase {
    private struct Profile: Codable, Equatable {
        var name: String
    }

    private struct ProfileEndpoint: Endpoint {
        var path: String { "profile" }
        var method: HTTPMethod { .get }
        var acceptableContentTypes: [String]? { ["application/json"] }
    }

    private let html = Data("<html><body>Sign in to the Wi-Fi</body></html>".utf8)
    private let profileJSON = Data(#"{"name":"Ann"}"#.utf8)

    private func layer(for server: MockServer) -> NetworkLayer {
        NetworkLayer(baseURL: server.url("/v1"), sessionConfiguration: .ephemeral)
    }

    /// A server answering every request with `status`, `body` and these headers.
    private func server(
        status: Int = 200, headers: [String: String], body: Data
    ) throws -> MockServer {
        try MockServer.started(in: self) { _ in MockResponse(status: status, headers: headers, body: body) }
    }

    private func profile(
        from network: NetworkLayer, accepting types: [String]?, file: StaticString = #filePath,
        line: UInt = #line
    ) -> Result<NetworkResponse<Profile>, NetworkError>? {
        outcome(of: NetworkResponse<Profile>.self, file: file, line: line) { recorder in
            network.send(
                NetworkRequest(urlString: "profile", acceptableContentTypes: types),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
    }

    func testValidationIsOffByDefault() throws {
        let network = layer(for: try server(headers: ["Content-Type": "text/html"], body: html))

        let decoded = profile(from: network, accepting: nil)
        let raw = outcome(of: Data.self) { recorder in
            network.get(urlString: "page", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        guard case .decodingFailed(_, let body)? = decoded?.error else {
            return XCTFail("expected decodingFailed: \(String(describing: decoded))")
        }
        XCTAssertEqual(body, html)
        XCTAssertEqual(raw?.value, html, "Data takes any reply when no types are named")
    }

    func testAnHTMLReplyToAJSONRequestFailsWithItsTypeBodyAndHeaders() throws {
        for name in ["Content-Type", "content-type"] {
            let network = layer(
                for: try server(headers: [name: "text/html", "x-portal": "captive"], body: html))

            let result = profile(from: network, accepting: ["application/json"])

            guard case .unacceptableContentType(let type, let body, let headers)? = result?.error else {
                XCTFail("\(name): expected unacceptableContentType: \(String(describing: result))")
                continue
            }
            XCTAssertEqual(type, "text/html", name)
            XCTAssertEqual(body, html, name)
            XCTAssertEqual(headers["X-Portal"], "captive", name)
            XCTAssertEqual(headers["Content-Type"], "text/html", name)
            XCTAssertEqual(result?.error?.responseBody, html, name)
            XCTAssertEqual(
                result?.error?.message, "The server answered with an unexpected kind of content.", name)
        }
    }

    func testMatchingTypesPassWhateverTheirParametersAndCase() throws {
        for contentType in [
            "application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8",
        ] {
            let network = layer(for: try server(headers: ["Content-Type": contentType], body: profileJSON))

            let result = profile(from: network, accepting: ["application/json"])

            XCTAssertEqual(
                result?.value?.value, Profile(name: "Ann"), "\(contentType): \(String(describing: result))")
        }
    }

    func testAWildcardPassesItsSubtypesOnly() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let image = layer(for: try server(headers: ["Content-Type": "image/png"], body: png))
        let text = layer(for: try server(headers: ["Content-Type": "text/plain"], body: png))

        let accepted = outcome(of: NetworkResponse<Data>.self) { recorder in
            image.send(
                NetworkRequest<Data>(urlString: "logo", acceptableContentTypes: ["image/*"]),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let refused = outcome(of: NetworkResponse<Data>.self) { recorder in
            text.send(
                NetworkRequest<Data>(urlString: "logo", acceptableContentTypes: ["image/*"]),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(accepted?.value?.value, png, String(describing: accepted))
        guard case .unacceptableContentType("text/plain", let body, _)? = refused?.error else {
            return XCTFail("expected unacceptableContentType: \(String(describing: refused))")
        }
        XCTAssertEqual(body, png)
    }

    func testAReplyWithoutAContentTypeFailsWithNone() throws {
        let network = layer(for: try server(headers: [:], body: profileJSON))

        let result = profile(from: network, accepting: ["application/json"])

        guard case .unacceptableContentType(nil, let body, _)? = result?.error else {
            return XCTFail("expected unacceptableContentType(nil): \(String(describing: result))")
        }
        XCTAssertEqual(body, profileJSON)
    }

    func testA204WithNoBodyPasses() throws {
        let network = layer(for: try server(status: 204, headers: [:], body: Data()))

        let result = outcome(of: NetworkResponse<EmptyResponse>.self) { recorder in
            network.send(
                NetworkRequest(
                    method: .delete, urlString: "profile", acceptableContentTypes: ["application/json"]),
                successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value?.statusCode, 204, String(describing: result))
        XCTAssertEqual(result?.value?.data, Data())
    }

    func testAnErrorStatusIsReportedAsSuchWhateverItsType() throws {
        let network = layer(for: try server(status: 503, headers: ["Content-Type": "text/html"], body: html))

        let result = profile(from: network, accepting: ["application/json"])

        XCTAssertEqual(result?.error?.statusCode, 503, String(describing: result))
        XCTAssertEqual(result?.error?.responseBody, html)
    }

    func testAnEndpointsAcceptableContentTypesWorkTheSame() throws {
        let htmlNetwork = layer(
            for: try server(headers: ["Content-Type": "text/html; charset=utf-8"], body: html))
        let jsonNetwork = layer(
            for: try server(headers: ["Content-Type": "application/json; charset=utf-8"], body: profileJSON))

        let typed = outcome(of: Profile.self) { recorder in
            htmlNetwork.request(
                ProfileEndpoint(), successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let plain = outcome(of: Void.self) { recorder in
            htmlNetwork.request(
                ProfileEndpoint(), successHandler: recorder.done, errorHandler: recorder.failure)
        }
        let viaRequest = outcome(of: NetworkResponse<Profile>.self) { recorder in
            htmlNetwork.send(
                NetworkRequest(ProfileEndpoint()), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        let accepted = outcome(of: NetworkResponse<Profile>.self) { recorder in
            jsonNetwork.send(
                NetworkRequest(ProfileEndpoint()), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }

        for (name, error) in [
            ("typed", typed?.error), ("plain", plain?.error), ("request", viaRequest?.error),
        ] {
            guard case .unacceptableContentType("text/html; charset=utf-8", let body, _)? = error else {
                XCTFail("\(name): expected unacceptableContentType, got \(String(describing: error))")
                continue
            }
            XCTAssertEqual(body, html, name)
        }
        XCTAssertEqual(accepted?.value?.value, Profile(name: "Ann"), String(describing: accepted))
    }

    /// The layer's own list (``NetworkLayer/Configuration/acceptableContentTypes``) checks every reply kept in
    /// memory whose request names none; a request's own list replaces it, and a download keeps any type.
    func testTheLayersAcceptableContentTypesCheckEveryRequestThatNamesNone() throws {
        let server = try server(headers: ["Content-Type": "text/html"], body: html)
        var configuration = NetworkLayer.Configuration()
        configuration.baseURL = server.url("/v1")
        configuration.sessionConfiguration = .ephemeral
        configuration.acceptableContentTypes = ["application/json"]
        let network = NetworkLayer(configuration: configuration)

        let decoded = profile(from: network, accepting: nil)
        let raw = outcome(of: Data.self) { recorder in
            network.get(urlString: "page", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let ownList = outcome(of: Data.self) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "page", acceptableContentTypes: ["text/html"]),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: destination) }
        let downloaded = outcome(of: URL.self) { recorder in
            network.send(
                .download(urlString: "page", to: destination), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }

        for result in [decoded.map { $0.map { _ in () } }, raw.map { $0.map { _ in () } }] {
            guard case .unacceptableContentType("text/html", _, _)? = result?.error else {
                return XCTFail("expected unacceptableContentType: \(String(describing: result))")
            }
        }
        XCTAssertEqual(ownList?.value, html, "a request's own list replaces the layer's")
        XCTAssertEqual(downloaded?.value, destination, "a download keeps any type")
        XCTAssertEqual(network.configuration.acceptableContentTypes, ["application/json"])
    }
}
