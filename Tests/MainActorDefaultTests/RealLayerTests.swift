import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The MainActor presenter against the real layer and a real server on 127.0.0.1: replies are decoded on
/// a background queue and the handlers run on the main queue, which `wait(for:timeout:)` drains (on Linux
/// XCTest runs the main run loop while it waits). Why the synchronous tests are `nonisolated` and run
/// their bodies in `MainActor.assumeIsolated`: see DummyLayerTests.swift.
final class RealLayerTests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    private let ann = Employee(id: 1, name: "Ann")
    private let bo = Employee(id: 2, name: "Bo")

    private func startedServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// Runs `action` and waits, draining the main queue, until the view has been told something.
    private func waitForViewUpdate(of view: SpyStaffView, _ action: () -> Void) {
        let updated = expectation(description: "view updated")
        view.onUpdate = { updated.fulfill() }
        action()
        wait(for: [updated], timeout: 10)
        view.onUpdate = {}
    }

    nonisolated func testGetPostSendAndEndpointOverLoopback() throws {
        try MainActor.assumeIsolated {
            let server = try startedServer()
            server.enqueue(try .json([ann]))
            server.enqueue(try .json(bo, status: 201))
            server.enqueue(try .json(Payslip(employeeID: 2, amount: 4200)))
            server.enqueue(MockResponse(status: 204))
            let view = SpyStaffView()
            let presenter = StaffPresenter(
                view: view, networkLayer: NetworkLayer(baseURL: server.baseURL, timeout: 5))

            waitForViewUpdate(of: view) { presenter.load() }
            XCTAssertEqual(view.shown, [ann])
            waitForViewUpdate(of: view) { presenter.hire("Bo") }
            XCTAssertEqual(view.hired, bo)
            XCTAssertEqual(presenter.employees, [ann, bo])
            waitForViewUpdate(of: view) { presenter.showPayslip(of: bo) }
            XCTAssertEqual(view.payslip, Payslip(employeeID: 2, amount: 4200))
            waitForViewUpdate(of: view) { presenter.fire(ann) }
            XCTAssertEqual(view.fired, 1)
            XCTAssertEqual(presenter.employees, [bo])
            XCTAssertNil(view.errorMessage)

            let requests = (0..<4).compactMap { _ in server.takeRequest(timeout: 1) }
            XCTAssertEqual(requests.map(\.method), ["GET", "POST", "GET", "DELETE"])
            XCTAssertEqual(
                requests.map(\.path), ["/employees", "/employees", "/employees/2/payslip", "/employees/1"])
            XCTAssertEqual(try requests[1].decodedBody(as: NewEmployee.self), NewEmployee(name: "Bo"))
            XCTAssertEqual(requests[2].header("X-Request-Reason"), "payslip")
        }
    }

    nonisolated func testAServerErrorReachesTheView() throws {
        try MainActor.assumeIsolated {
            let server = try startedServer()
            server.enqueue(MockResponse(status: 503))
            let view = SpyStaffView()
            let presenter = StaffPresenter(
                view: view, networkLayer: NetworkLayer(baseURL: server.baseURL, timeout: 5))

            waitForViewUpdate(of: view) { presenter.load() }
            XCTAssertNil(view.shown)
            XCTAssertEqual(view.errorMessage?.contains("503"), true)
        }
    }

    /// Why models are `nonisolated`: the layer runs `init(from:)` on a background queue, and only the
    /// handler on the main queue.
    nonisolated func testDecodingRunsOffTheMainThreadAndTheHandlerOnIt() throws {
        try MainActor.assumeIsolated {
            let server = try startedServer()
            server.enqueue(.json(raw: "{}"))
            let answered = expectation(description: "answered")
            var decoded: WhereDecoded?
            var handlerOnMainThread = false
            NetworkLayer(baseURL: server.baseURL, timeout: 5).get(
                urlString: "probe",
                successHandler: { (value: WhereDecoded) in
                    decoded = value
                    handlerOnMainThread = Thread.isMainThread
                    answered.fulfill()
                },
                errorHandler: { error in
                    XCTFail("\(error)")
                    answered.fulfill()
                })
            wait(for: [answered], timeout: 10)
            XCTAssertEqual(decoded?.onMainThread, false)
            XCTAssertTrue(handlerOnMainThread)
        }
    }

    /// An `async` test may stay MainActor (see DummyLayerTests.swift); it waits with `fulfillment(of:)`,
    /// and XCTest's own wait around the async test drains the main queue meanwhile.
    func testAnAsyncMainActorTestWorksToo() async throws {
        let server = try startedServer()
        server.enqueue(try .json([ann, bo]))
        let view = SpyStaffView()
        let presenter = StaffPresenter(
            view: view, networkLayer: NetworkLayer(baseURL: server.baseURL, timeout: 5))
        let updated = expectation(description: "view updated")
        view.onUpdate = { updated.fulfill() }
        presenter.load()
        await fulfillment(of: [updated], timeout: 10)
        XCTAssertEqual(view.shown, [ann, bo])
    }
}
