import Foundation
import NetworkLayer

// A presenter written the way the classic articles write one: a plain, non-isolated class with plain
// closures. This file compiling in Swift 6 mode with zero warnings is part of the proof.

struct Employee: Codable, Equatable {
    let name: String
    let salary: String
    let age: String
}

protocol EmployeesView: AnyObject {
    func show(_ employees: [Employee])
    func showError(_ message: String)
    func showSaved()
}

final class EmployeesPresenter {
    let networkLayer: NetworkLayer
    weak var view: EmployeesView?

    init(view: EmployeesView, networkLayer: NetworkLayer = NetworkLayer()) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/employees",
            successHandler: { (employees: [Employee]) in self.view?.show(employees) },
            errorHandler: { error in self.view?.showError(error.message) })
    }

    func save(_ employee: Employee) {
        networkLayer.post(
            urlString: "https://api.example.com/employees", body: employee,
            successHandler: { self.view?.showSaved() },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}

/// A view that records what the presenter told it.
final class SpyEmployeesView: EmployeesView {
    var shown: [Employee]?
    var errorMessage: String?
    var saved = false
    var onUpdate: () -> Void = {}

    func show(_ employees: [Employee]) {
        shown = employees
        onUpdate()
    }

    func showError(_ message: String) {
        errorMessage = message
        onUpdate()
    }

    func showSaved() {
        saved = true
        onUpdate()
    }
}
