import Foundation
import NetworkLayer

// What every case in ../../Cases shares (the script type-checks each case with this file), as the
// migration guide's samples see it; ConsumerTests' DocSnippets/Migrating.swift declares the same for the
// "after" forms.

struct Todo: Codable, Equatable {
    let id: Int
    let title: String
}

struct StoredDocument: Codable, Equatable {
    let id: Int
}

/// The reply of a `GET todos`, as an endpoint.
struct TodoList: Endpoint {
    var path: String { "todos" }
    var method: HTTPMethod { .get }
}

/// A report to download, as an endpoint.
struct ReportFile: Endpoint {
    var path: String { "files/report.pdf" }
    var method: HTTPMethod { .get }
}

/// Stands in for a screen.
final class Screen {
    func show(_ todos: [Todo], total: String?) {}
    func showList(_ todos: [Todo]) {}
    func showTodo(_ todo: Todo) {}
    func show(_ todo: Todo, at location: String?) {}
    func show(_ document: StoredDocument) {}
    func show(_ message: String) {}
    func showStatus(_ statusCode: Int) {}
    func showSaved() {}
    func showProgress(_ fraction: Double) {}
    func open(_ file: URL) {}
}
