import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs the one request that needs it.
struct UploadSignature: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var signed = request
        signed.setValue("v1=abc", forHTTPHeaderField: "X-Upload-Signature")
        completion(.success(signed))
    }
}

/// A presenter that treats "no profile yet" (404) as a value, not an error.
final class ProfilePresenter {
    private let networkLayer: NetworkLayer
    private(set) var hasProfile: Bool?

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load() {
        var request = NetworkRequest<Data>(urlString: "https://api.example.com/me/profile")
        request.acceptableStatusCodes = Set(200..<300).union([404])
        request.interceptors = [UploadSignature()]
        networkLayer.send(
            request, successHandler: { response in self.hasProfile = response.statusCode != 404 },
            errorHandler: { _ in self.hasProfile = nil })
    }
}

final class PerRequestControlConsumerTests: XCTestCase {
    func testA404IsAValueForTheDummyToo() {
        let network = DummyNetworkLayer()
        network.stub(
            .get, "https://api.example.com/me/profile", returning: Data(), statusCode: 404, headers: [:])
        let presenter = ProfilePresenter(networkLayer: network)
        presenter.load()
        XCTAssertEqual(presenter.hasProfile, false)
        XCTAssertEqual(network.recordedRequests.first?.header("X-Upload-Signature"), "v1=abc")
    }

    func testOtherRequestsStillFailOnA404() {
        let network = DummyNetworkLayer()
        network.stub(
            .get, "https://api.example.com/me/profile", returning: Data(), statusCode: 404, headers: [:])
        var failure: NetworkError?
        network.get(
            urlString: "https://api.example.com/me/profile", successHandler: { (_: Data) in },
            errorHandler: { failure = $0 })
        XCTAssertEqual(failure?.statusCode, 404)
        XCTAssertNil(network.recordedRequests.first?.header("X-Upload-Signature"))
    }
}
