/// Prints what a screen would show.
final class ConsoleView: EmployeesView {
    func show(_ employees: [Employee]) {
        print("  \(employees.count) employee\(employees.count == 1 ? "" : "s"):")
        for employee in employees {
            print("    #\(employee.id.map(String.init) ?? "?")  \(employee.name), \(employee.role)")
        }
    }

    func showCreated(_ employee: Employee) {
        print("  Hired \(employee.name) as #\(employee.id.map(String.init) ?? "?").")
    }

    func showMessage(_ message: String) {
        print("  Shown to the user: \"\(message)\"")
    }
}
