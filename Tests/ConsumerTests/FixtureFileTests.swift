import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A chore as a snake_case API with ISO 8601 dates sends it (see Fixtures/chores.json).
struct Chore: Codable, Equatable {
    let id: Int
    let title: String
    let isDone: Bool
    let dueDate: Date
}

enum ChoresAPI: Endpoint {
    case list

    var path: String { "chores" }
    var method: HTTPMethod { .get }
}

/// The app's coders: snake_case keys and ISO 8601 dates, which the doubles must use too.
enum AppCoding {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

/// A fixture file from this target's resources (`resources: [.copy("Fixtures")]`).
func fixture(_ name: String) throws -> URL {
    try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
}

/// Stubs answering with fixture files, decoded through each double's decoder; and request bodies read
/// back with the app's decoder.
final class FixtureFileTests: XCTestCase {
    private let environment = APIEnvironment(baseURL: URL(string: "https://api.example.com/v1/")!)
    private let firstChore = Chore(
        id: 7, title: "Water the plants", isDone: false, dueDate: Date(timeIntervalSince1970: 1_777_626_000))

    func testTheDummyDecodesAFixtureWithTheAppsDecoder() throws {
        let network = DummyNetworkLayer(
            environment: environment, encoder: AppCoding.encoder, decoder: AppCoding.decoder)
        network.stub(.get, "chores", returningContentsOf: try fixture("chores"))
        let got = Received<[Chore]>()
        network.get(urlString: "chores", successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.values, [[firstChore]], "\(got.errors)")
    }

    func testAnEndpointFixtureAndTheRawBytes() throws {
        let network = DummyNetworkLayer(environment: environment, decoder: AppCoding.decoder)
        network.stub(ChoresAPI.list, returningContentsOf: try fixture("chores"))
        let chores = Received<[Chore]>()
        network.request(ChoresAPI.list, successHandler: chores.success, errorHandler: chores.failure)
        let bytes = Received<Data>()
        network.request(ChoresAPI.list, successHandler: bytes.success, errorHandler: bytes.failure)
        XCTAssertEqual(chores.values.first?.first?.title, "Water the plants")
        XCTAssertEqual(bytes.values.first, try Data(contentsOf: try fixture("chores")))
    }

    func testAMissingFixtureFailsNamingTheFile() {
        let network = DummyNetworkLayer()
        network.stub(
            .get, "https://x.test/a", returningContentsOf: URL(fileURLWithPath: "/no/such/file.json"))
        let got = Received<[Chore]>()
        network.get(urlString: "https://x.test/a", successHandler: got.success, errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("could not read the fixture /no/such/file.json"), message)
    }

    func testTheEnvironmentInitialiserRecordsBodiesWithTheAppsEncoder() throws {
        let network = DummyNetworkLayer(
            environment: environment, encoder: AppCoding.encoder, decoder: AppCoding.decoder)
        let got = Received<Void>()
        network.post(
            urlString: "chores", body: firstChore, successHandler: got.done,
            errorHandler: got.failure)
        let sent = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertTrue(String(decoding: sent.body ?? Data(), as: UTF8.self).contains(#""is_done":false"#))
        XCTAssertEqual(try sent.decodedBody(as: Chore.self, decoder: AppCoding.decoder), firstChore)
    }

    func testDecodedBodySaysWhyItCannotDecode() throws {
        let network = DummyNetworkLayer(environment: environment, encoder: AppCoding.encoder)
        let got = Received<Void>()
        network.post(
            urlString: "chores", body: firstChore, successHandler: got.done,
            errorHandler: got.failure)
        network.delete(urlString: "chores/7", successHandler: got.done, errorHandler: got.failure)
        let sent = network.recordedRequests
        XCTAssertThrowsError(try sent[0].decodedBody(as: Chore.self)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "isDone", "the default decoder looks for camelCase keys")
        }
        XCTAssertThrowsError(try sent[1].decodedBody(as: Chore.self)) { error in
            guard case DecodingError.valueNotFound(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(
                context.debugDescription,
                "DELETE https://api.example.com/v1/chores/7 has no body to decode as Chore")
        }
    }

    func testAStubTransportFileIsSentAsJSONAndDecodedByTheRealDecoder() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .path("/v1/chores"), with: .file(try fixture("chores")))
        let network = stubs.makeNetworkLayer(baseURL: environment.baseURL, decoder: AppCoding.decoder)
        var request = NetworkRequest<[Chore]>(urlString: "chores")
        request.acceptableContentTypes = ["application/json"]
        let response = try await network.send(request)
        XCTAssertEqual(response.value, [firstChore])
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
    }

    func testAMockServerFileIsSentAsJSONAndTheRequestBodyReadsBack() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try .file(try fixture("todos")))
        server.enqueue(MockResponse(status: 201))
        let network = NetworkLayer(baseURL: server.baseURL, encoder: AppCoding.encoder, timeout: 10)
        let todos: [Todo] = try await network.get(urlString: "todos")
        XCTAssertEqual(todos.map(\.id), [1, 2])
        try await network.postIgnoringReply(urlString: "chores", body: firstChore)
        let requests = server.recordedRequests
        XCTAssertEqual(try requests[1].decodedBody(as: Chore.self, decoder: AppCoding.decoder), firstChore)
        XCTAssertThrowsError(try requests[0].decodedBody(as: Chore.self), "a GET has no body")
        XCTAssertThrowsError(try MockResponse.file(URL(fileURLWithPath: "/no/such/file.json")))
    }
}
