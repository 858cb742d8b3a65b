import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The classic presenter with a `DummyNetworkLayer`: every test asserts right after the call, because
/// the dummy answers before the request method returns (except where a delivery queue is asked for).
final class PresenterWithDummyTests: XCTestCase {
    private let network = DummyNetworkLayer()
    private let view = SpyEmployeesView()
    private lazy var presenter = EmployeesPresenter(view: view, networkLayer: network)
    private let ann = Employee(name: "Ann", salary: "1", age: "30")
    private let bo = Employee(name: "Bo", salary: "2", age: "40")

    func testLoadShowsTheEmployees() {
        network.successResponse = [ann, bo]
        presenter.load()
        XCTAssertEqual(view.shown, [ann, bo])
        XCTAssertNil(view.errorMessage)
        XCTAssertEqual(network.callCount(.get, "https://api.example.com/employees"), 1)
    }

    func testLoadShowsTheErrorMessage() {
        network.errorResponse = "Unable to parse response"
        presenter.load()
        XCTAssertNil(view.shown)
        XCTAssertEqual(view.errorMessage, "Unable to parse response")
    }

    func testAStubOfTheWrongTypeNamesBothTypes() {
        network.successResponse = ann  // the presenter expects [Employee], not Employee
        presenter.load()
        XCTAssertNil(view.shown)
        let message = view.errorMessage ?? ""
        XCTAssertTrue(message.contains("expects Array<Employee>"), message)
        XCTAssertTrue(message.contains("successResponse is Employee"), message)
    }

    func testSavePostsTheEmployee() throws {
        presenter.save(bo)
        XCTAssertTrue(view.saved)
        let sent = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(sent.method, .post)
        XCTAssertEqual(sent.url.absoluteString, "https://api.example.com/employees")
        XCTAssertEqual(sent.header("Content-Type"), "application/json")
        XCTAssertEqual(try sent.decodedBody(as: Employee.self), bo)
    }

    func testSaveShowsTheServersError() {
        network.stub(
            .post, "/employees", failingWith: .unacceptableStatusCode(500, body: Data(), headers: [:]))
        presenter.save(bo)
        XCTAssertFalse(view.saved)
        XCTAssertEqual(view.errorMessage?.contains("500"), true)
    }

    func testRetryAfterAFailureShowsTheEmployees() {
        network.stub(
            .get, "https://api.example.com/employees", outcomes: [.failure("offline"), .success([ann])])
        presenter.load()
        XCTAssertEqual(view.errorMessage, "offline")
        XCTAssertNil(view.shown)
        presenter.load()  // the retry
        XCTAssertEqual(view.shown, [ann])
        XCTAssertEqual(network.callCount(.get, "https://api.example.com/employees"), 2)
    }

    func testADeliveryQueueDeliversLater() {
        network.deliveryQueue = .main
        network.successResponse = [ann]
        presenter.load()
        XCTAssertNil(view.shown, "nothing is delivered inside load()")
        let updated = expectation(description: "view updated")
        view.onUpdate = { updated.fulfill() }
        wait(for: [updated], timeout: 5)
        XCTAssertEqual(view.shown, [ann])
    }
}
