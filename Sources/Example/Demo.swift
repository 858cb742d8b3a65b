import Foundation
import NetworkLayer
import NetworkTestSupport

/// The demo's script: each step starts when the previous step's handler has run on the main queue.
final class Demo {
    /// Held here: the presenter keeps its view weakly, as presenters do.
    private let view: ConsoleView
    private let presenter: EmployeesPresenter
    private let server: MockServer?

    init(view: ConsoleView, networkLayer: NetworkLayer, server: MockServer?) {
        self.view = view
        self.presenter = EmployeesPresenter(view: view, networkLayer: networkLayer)
        self.server = server
    }

    private var steps: [(title: String, action: (@escaping () -> Void) -> Void)] {
        [
            ("Listing employees", { self.presenter.loadEmployees(then: $0) }),
            ("Hiring Linus", { self.presenter.hire(Employee(name: "Linus", role: "Maintainer"), then: $0) }),
            ("Listing employees again", { self.presenter.loadEmployees(then: $0) }),
            (
                "Looking up employee #99, who does not exist",
                { self.presenter.loadEmployee(id: 99, then: $0) }
            ),
            (
                "Asking for a report the server is too slow to send (timeout 2 s)",
                { self.presenter.loadReport(then: $0) }
            ),
            (
                "Asking the assistant, its answer streamed word by word",
                { ChatStream(networkLayer: self.presenter.networkLayer).run(then: $0) }
            ),
            (
                "Downloading the employee handbook",
                { HandbookDownload(networkLayer: self.presenter.networkLayer).run(then: $0) }
            ),
        ]
    }

    func run(from index: Int = 0) {
        let steps = steps
        guard index < steps.count else { return finish() }
        print("\n\(steps[index].title)…")
        steps[index].action { self.run(from: index + 1) }
    }

    private func finish() {
        // Handlers arrive on the main queue; under dispatchMain() that queue may run off the main thread.
        dispatchPrecondition(condition: .onQueue(.main))
        server?.stop()
        print("\nDone.")
        exit(0)
    }
}
