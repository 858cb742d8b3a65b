import NetworkLayer

/// What the presenter shows; the console plays the screen.
protocol EmployeesView: AnyObject {
    func show(_ employees: [Employee])
    func showCreated(_ employee: Employee)
    func showMessage(_ message: String)
}

/// A presenter in the classic style: plain closures, no isolation, one network layer injected.
final class EmployeesPresenter {
    let networkLayer: NetworkLayer
    weak var view: EmployeesView?

    init(view: EmployeesView, networkLayer: NetworkLayer = NetworkLayer()) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func loadEmployees(then next: @escaping () -> Void) {
        networkLayer.get(
            urlString: "employees",
            successHandler: { (employees: [Employee]) in
                self.view?.show(employees)
                next()
            },
            errorHandler: { error in
                self.view?.showMessage(error.message)
                next()
            })
    }

    func hire(_ employee: Employee, then next: @escaping () -> Void) {
        networkLayer.post(
            urlString: "employees", body: employee,
            successHandler: { (created: Employee) in
                self.view?.showCreated(created)
                next()
            },
            errorHandler: { error in
                self.view?.showMessage(error.message)
                next()
            })
    }

    func loadEmployee(id: Int, then next: @escaping () -> Void) {
        networkLayer.get(
            urlString: "employees/\(id)",
            successHandler: { (employee: Employee) in
                self.view?.show([employee])
                next()
            },
            errorHandler: { error in
                self.view?.showMessage(error.message)
                next()
            })
    }

    func loadReport(then next: @escaping () -> Void) {
        networkLayer.get(
            urlString: "reports/slow",
            successHandler: { (_: [Employee]) in next() },
            errorHandler: { error in
                self.view?.showMessage(error.message)
                next()
            })
    }
}
