import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("Per-request control")
struct PerRequestControlSuite {
    @Test("The real pipeline accepts the request's own statuses and runs its own interceptor")
    func realPipeline() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: StubResponse(status: 404))
        var request = NetworkRequest<Data>(urlString: "https://api.example.com/me/profile")
        request.acceptableStatusCodes = [200, 404]
        request.interceptors = [UploadSignature()]
        let response = try await stubs.makeNetworkLayer().send(request)
        #expect(response.statusCode == 404)
        #expect(stubs.recordedRequests.first?.header("X-Upload-Signature") == "v1=abc")
    }
}
