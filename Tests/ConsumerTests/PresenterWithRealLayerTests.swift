import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The classic presenter against the real pipeline, answered by the stub transport: handlers arrive on
/// the main queue, which `wait(for:)` drains.
final class PresenterWithRealLayerTests: XCTestCase {
    private let stubs = StubTransport()
    private let view = SpyEmployeesView()

    private func waitForViewUpdate(_ action: () -> Void) {
        let updated = expectation(description: "view updated")
        view.onUpdate = { updated.fulfill() }
        action()
        wait(for: [updated], timeout: 10)
    }

    func testLoadShowsEmployees() {
        let employees = [Employee(name: "Ann", salary: "1", age: "30")]
        stubs.stub(.get, "https://api.example.com/employees", with: .json(employees))
        let presenter = EmployeesPresenter(view: view, networkLayer: stubs.makeNetworkLayer())
        waitForViewUpdate { presenter.load() }
        XCTAssertEqual(view.shown, employees)
        XCTAssertNil(view.errorMessage)
    }

    func testServerErrorShowsAMessage() {
        stubs.stub(.get, .any, with: StubResponse(status: 503))
        let presenter = EmployeesPresenter(view: view, networkLayer: stubs.makeNetworkLayer())
        waitForViewUpdate { presenter.load() }
        XCTAssertNil(view.shown)
        XCTAssertEqual(view.errorMessage?.contains("503"), true)
    }

    func testSavePostsTheEmployee() {
        stubs.stub(.post, "https://api.example.com/employees", with: StubResponse(status: 201))
        let presenter = EmployeesPresenter(view: view, networkLayer: stubs.makeNetworkLayer())
        let employee = Employee(name: "Bo", salary: "2", age: "40")
        waitForViewUpdate { presenter.save(employee) }
        XCTAssertTrue(view.saved)
        XCTAssertEqual(try stubs.recordedRequests.first?.decodedBody(as: Employee.self), employee)
    }

    func testDefaultArgumentBuildsARealLayerWithoutASessionPerInstance() {
        let presenter = EmployeesPresenter(view: view)
        XCTAssertNil(presenter.networkLayer.baseURL)
        XCTAssertEqual(presenter.networkLayer.callbackQueue.label, DispatchQueue.main.label)
    }
}
