import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// XCTest in a MainActor-default module, on Linux. A test class here is MainActor like everything else,
// and two things about XCTest on Linux need `nonisolated`:
//
// - `init(name:testClosure:)`. swift-corelibs-xctest creates every test case through it, and declares it
//   nonisolated. The class inherits it, inferred MainActor, and the compiler rejects the class: "main
//   actor-isolated initializer 'init(name:testClosure:)' has different actor isolation from nonisolated
//   overridden declaration". So each class restates it, `nonisolated`.
// - Synchronous test methods. SwiftPM's generated test list holds each as a `(Self) -> () -> ()` value
//   and is converted at run time; a MainActor method is `(Self) -> @MainActor () -> ()`, which does not
//   cast, and the test binary aborts as soon as it lists its tests ("Could not cast value of type ..."),
//   so no test of any target runs; the compiler says nothing. So each synchronous test is `nonisolated`
//   and runs its body in `MainActor.assumeIsolated`: XCTest runs test methods on the main thread, and
//   the assumption is checked (it traps rather than races if that ever changes). The class stays
//   MainActor, which makes it Sendable, so the body may use `self` (`expectation`, `wait`); in a
//   `nonisolated` class it could not ("sending 'self' risks causing data races").
//
// `async` test methods may stay MainActor (RealLayerTests has one): SwiftPM wraps each in `asyncTest(_:)`,
// a conversion the compiler checks, and XCTest drains the main queue while it waits for the test.

/// The MainActor presenter with a `DummyNetworkLayer`: the dummy answers before the request method
/// returns, so each test asserts straight after the call.
final class DummyLayerTests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    private static let api = URL(string: "https://api.example.com/v1/")
    private let ann = Employee(id: 1, name: "Ann")
    private let bo = Employee(id: 2, name: "Bo")

    nonisolated func testLoadShowsTheEmployees() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            let view = SpyStaffView()
            network.stub(.get, "employees", returning: [ann, bo])
            let presenter = StaffPresenter(view: view, networkLayer: network)
            presenter.load()
            XCTAssertEqual(view.shown, [ann, bo])
            XCTAssertEqual(presenter.employees, [ann, bo])
            XCTAssertNil(view.errorMessage)
            XCTAssertEqual(
                network.recordedRequests.first?.url.absoluteString, "https://api.example.com/v1/employees")
        }
    }

    nonisolated func testHirePostsTheNewEmployee() throws {
        try MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            let view = SpyStaffView()
            network.stub(.post, "employees", returning: bo)
            let presenter = StaffPresenter(view: view, networkLayer: network)
            presenter.hire("Bo")
            XCTAssertEqual(view.hired, bo)
            XCTAssertEqual(presenter.employees, [bo])
            let sent = try XCTUnwrap(network.recordedRequests.first)
            XCTAssertEqual(sent.method, .post)
            XCTAssertEqual(sent.header("Content-Type"), "application/json")
            XCTAssertEqual(try sent.decodedBody(as: NewEmployee.self), NewEmployee(name: "Bo"))
        }
    }

    nonisolated func testPayslipGoesThroughSendWithItsHeader() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            let view = SpyStaffView()
            network.stub(StaffAPI.payslip(employeeID: 2), returning: Payslip(employeeID: 2, amount: 4200))
            StaffPresenter(view: view, networkLayer: network).showPayslip(of: bo)
            XCTAssertEqual(view.payslip, Payslip(employeeID: 2, amount: 4200))
            XCTAssertEqual(network.recordedRequests.first?.header("X-Request-Reason"), "payslip")
        }
    }

    nonisolated func testFireSendsTheEndpoint() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            let view = SpyStaffView()
            network.stub(.get, "employees", returning: [ann, bo])
            let presenter = StaffPresenter(view: view, networkLayer: network)
            presenter.load()
            presenter.fire(ann)
            XCTAssertEqual(view.fired, 1)
            XCTAssertEqual(presenter.employees, [bo])
            XCTAssertEqual(network.recordedRequests.map(\.method), [.get, .delete])
            XCTAssertEqual(
                network.recordedRequests.last?.url.absoluteString, "https://api.example.com/v1/employees/1")
            XCTAssertEqual(network.callCount(StaffAPI.fire(employeeID: 1)), 1)
        }
    }

    nonisolated func testAnErrorReachesTheView() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api)
            let view = SpyStaffView()
            network.errorResponse = "You are offline"
            StaffPresenter(view: view, networkLayer: network).load()
            XCTAssertNil(view.shown)
            XCTAssertEqual(view.errorMessage, "You are offline")
        }
    }

    nonisolated func testADeliveryQueueDeliversOnTheMainQueueLater() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer(baseURL: Self.api, deliveryQueue: .main)
            let view = SpyStaffView()
            network.successResponse = [ann]
            StaffPresenter(view: view, networkLayer: network).load()
            XCTAssertNil(view.shown, "nothing is delivered inside load()")
            let updated = expectation(description: "view updated")
            view.onUpdate = { updated.fulfill() }
            wait(for: [updated], timeout: 5)
            XCTAssertEqual(view.shown, [ann])
        }
    }
}
