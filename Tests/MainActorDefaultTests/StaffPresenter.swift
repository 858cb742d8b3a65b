import Foundation
import NetworkLayer

// The README's sample for MainActor-default modules, verbatim (see ConsumerTests/ReadmeSyncTests): from
// the next comment to the end of `StaffPresenter`.

// In a target built with .defaultIsolation(MainActor.self), such as a new Xcode 26 app target:
nonisolated struct Employee: Codable, Equatable {  // decoded off the main actor: nonisolated
    let id: Int
    let name: String
}

final class StaffPresenter {  // MainActor, as everything else in the target
    private let networkLayer: NetworkLayer
    private weak var view: StaffView?
    private(set) var employees: [Employee] = []

    init(view: StaffView, networkLayer: NetworkLayer = NetworkLayer()) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "employees",
            successHandler: { (employees: [Employee]) in
                self.employees = employees  // main-actor state: handlers run on the main queue
                self.view?.show(employees)
            },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}

// The other ways in: a POST, a hand-built `NetworkRequest` through `send`, an endpoint. Their handlers
// touch main-actor state directly too.
extension StaffPresenter {
    func hire(_ name: String) {
        networkLayer.post(
            urlString: "employees", body: NewEmployee(name: name),
            successHandler: { (hired: Employee) in
                self.employees.append(hired)
                self.view?.showHired(hired)
            },
            errorHandler: { error in self.view?.showError(error.message) })
    }

    func showPayslip(of employee: Employee) {
        var request = NetworkRequest<Payslip>(StaffAPI.payslip(employeeID: employee.id))
        request.headers = ["X-Request-Reason": "payslip"]
        networkLayer.send(request) { result in
            switch result {
            case .success(let response): self.view?.show(response.value)
            case .failure(let error): self.view?.showError(error.message)
            }
        }
    }

    func fire(_ employee: Employee) {
        networkLayer.request(
            StaffAPI.fire(employeeID: employee.id),
            successHandler: {
                self.employees.removeAll { $0.id == employee.id }
                self.view?.showFired(employee.id)
            },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}

protocol StaffView: AnyObject {
    func show(_ employees: [Employee])
    func showHired(_ employee: Employee)
    func show(_ payslip: Payslip)
    func showFired(_ employeeID: Int)
    func showError(_ message: String)
}

/// A view that records what the presenter told it; MainActor, as the app's view would be.
final class SpyStaffView: StaffView {
    var shown: [Employee]?
    var hired: Employee?
    var payslip: Payslip?
    var fired: Int?
    var errorMessage: String?
    var onUpdate: () -> Void = {}

    func show(_ employees: [Employee]) {
        shown = employees
        onUpdate()
    }

    func showHired(_ employee: Employee) {
        hired = employee
        onUpdate()
    }

    func show(_ payslip: Payslip) {
        self.payslip = payslip
        onUpdate()
    }

    func showFired(_ employeeID: Int) {
        fired = employeeID
        onUpdate()
    }

    func showError(_ message: String) {
        errorMessage = message
        onUpdate()
    }
}
