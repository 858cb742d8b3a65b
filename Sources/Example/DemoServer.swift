import Foundation
import NetworkTestSupport

/// A small employees API served by MockServer on 127.0.0.1, so the demo runs offline.
enum DemoServer {
    static func start() throws -> MockServer {
        let store = EmployeeStore()
        let server = MockServer { request in
            switch (request.method, request.path) {
            case ("GET", "/employees"):
                return try .json(store.all)
            case ("POST", "/employees"):
                let new = try request.decodedBody(as: Employee.self)
                return try .json(store.add(new), status: 201)
            case ("GET", "/reports/slow"):
                return MockResponse(status: 200, text: "[]").delayed(beforeHeaders: 5)
            case ("GET", let path) where path.hasPrefix("/employees/"):
                let id = Int(path.dropFirst("/employees/".count))
                guard let employee = store.all.first(where: { $0.id == id }) else {
                    return .json(raw: #"{"error":"no such employee"}"#, status: 404)
                }
                return try .json(employee)
            default:
                return .json(raw: #"{"error":"not found"}"#, status: 404)
            }
        }
        try server.start()
        return server
    }
}

/// The demo API's data, shared by the server's connection threads.
final class EmployeeStore: @unchecked Sendable {
    private let lock = NSLock()
    private var employees = [
        Employee(id: 1, name: "Ada", role: "Engineer"),
        Employee(id: 2, name: "Grace", role: "Admiral"),
    ]

    var all: [Employee] { lock.withLock { employees } }

    func add(_ employee: Employee) -> Employee {
        lock.withLock {
            var stored = employee
            stored.id = (employees.compactMap(\.id).max() ?? 0) + 1
            employees.append(stored)
            return stored
        }
    }
}
