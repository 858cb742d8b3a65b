import Foundation
import NetworkLayer
import NetworkTestSupport

/// A small employees API served by MockServer on 127.0.0.1, so the demo runs offline.
enum DemoServer {
    static func start() throws -> MockServer {
        let store = EmployeeStore()
        // 8 MB at about 4 MB/s, so the progress bar has two seconds to move.
        let handbook = MockResponse(
            headers: ["Content-Type": "application/pdf", "ETag": "\"handbook-1\""],
            body: Data(repeating: 0x25, count: 8_000_000)
        ).supportingRanges().throttled(bytes: 128 * 1024, every: 0.03)
        let server = MockServer { request in
            switch (request.method, request.path) {
            case ("GET", "/files/handbook.pdf"):
                return handbook
            case ("GET", "/employees"):
                return try .json(store.all)
            case ("POST", "/employees"):
                let new = try request.decodedBody(as: Employee.self)
                return try .json(store.add(new), status: 201)
            case ("POST", "/chat"):
                // The assistant's answer, a word every 80 ms, as chat APIs stream tokens.
                let words = "Streams arrive as they are written: each word is an event, shown at once.".split(
                    separator: " ")
                return .serverSentEvents(words.map { ServerSentEvent(data: $0 + " ") }, interval: 0.08)
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
