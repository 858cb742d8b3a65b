import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Cache then network from MainActor code: plain closures for the callback form, `for try await` for the
/// sequence (see DummyLayerTests for why the test methods look as they do).
final class CacheThenNetworkTests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    private static let api = URL(string: "https://api.example.com/v1/")
    private let ann = Employee(id: 1, name: "Ann")
    private let bo = Employee(id: 2, name: "Bo")

    nonisolated func testTheCallbackFormShowsTheSavedStaffThenTheFresh() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            network.stub(.get, "employees", stored: [ann], then: .success([ann, bo]))
            var shown: [[Employee]] = []
            var failure: NetworkError?
            network.sendCacheThenNetwork(
                NetworkRequest<[Employee]>(urlString: "employees"),
                updateHandler: { shown.append($0.value) }, completionHandler: { failure = $0 })
            XCTAssertEqual(shown, [[ann], [ann, bo]])
            XCTAssertNil(failure)
        }
    }

    func testTheSequenceThrowsAfterTheSavedStaff() async {
        let network = DummyNetworkLayer(baseURL: Self.api)
        network.stub(.get, "employees", stored: [ann], then: .failure(.timedOut))
        var shown: [[Employee]] = []
        do {
            for try await response in network.sendCacheThenNetwork(
                NetworkRequest<[Employee]>(urlString: "employees"))
            {
                shown.append(response.value)
            }
            XCTFail("the network's failure wasn't thrown")
        } catch {
            guard case .timedOut = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(shown, [[ann]])
    }
}
