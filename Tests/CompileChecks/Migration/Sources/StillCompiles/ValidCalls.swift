import Foundation
import NetworkLayer

// Calls that compile today and must go on compiling beside the unavailable stubs (warnings as errors):
// each shares a name and labels with a stub, so an ambiguity or a stub chosen over the real form fails
// this build. The guide's "after" forms are run by ConsumerTests' MigratingTests.

/// The handler forms, with the reply typed in the closure, inferred from its body, or a method.
func handlerForms(network: NetworkLayer, todo: Todo, screen: Screen) {
    network.get(
        urlString: "todos", successHandler: { (todos: [Todo]) in screen.show(todos, total: nil) },
        errorHandler: { error in screen.show(error.message) })
    network.get(
        urlString: "todos", query: ["page": "2"], successHandler: { todos in screen.show(todos, total: nil) },
        errorHandler: { error in screen.show(error.message) })
    network.request(TodoList(), successHandler: screen.showList, errorHandler: { _ in })
    network.request(TodoList(), successHandler: { screen.showSaved() }, errorHandler: { _ in })
    network.post(
        urlString: "todos", body: todo, successHandler: { (created: Todo) in screen.show(created, at: nil) },
        errorHandler: { _ in })
    network.post(
        urlString: "todos", body: todo, successHandler: { screen.showSaved() }, errorHandler: { _ in })
    network.put(urlString: "todos/1", body: todo, successHandler: screen.showTodo, errorHandler: { _ in })
    network.put(
        urlString: "todos/1", body: todo, successHandler: { screen.showSaved() }, errorHandler: { _ in })
    network.patch(
        urlString: "todos/1", body: todo, successHandler: { updated in screen.show(updated, at: nil) },
        errorHandler: { _ in })
    network.patch(urlString: "todos/1", body: todo, successHandler: {}, errorHandler: { _ in })
    network.delete(urlString: "todos/1", successHandler: { (_: EmptyResponse) in }, errorHandler: { _ in })
    let task = network.delete(
        urlString: "todos/1", successHandler: { screen.showSaved() }, errorHandler: { _ in })
    task.cancel()
}

/// The whole response and transfers, through `send`.
func sendForms(
    network: NetworkLayer, destination: URL, reportURL: URL, form: MultipartFormData, screen: Screen
) {
    network.send(
        NetworkRequest<[Todo]>(urlString: "todos"),
        successHandler: { response in screen.show(response.value, total: response.headers["X-Total-Count"]) },
        errorHandler: { _ in })
    network.send(NetworkRequest<Todo>(method: .delete, urlString: "todos/1")) { result in print(result) }
    var download = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
    download.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
    network.send(
        download, successHandler: { response in screen.open(response.value) }, errorHandler: { _ in })
    network.send(
        .download(ReportFile(), to: destination), successHandler: { screen.open($0.value) },
        errorHandler: { _ in })
    network.send(
        NetworkRequest<StoredDocument>.upload(urlString: "documents", fileURL: reportURL),
        successHandler: { response in screen.show(response.value) }, errorHandler: { _ in })
    network.send(
        NetworkRequest<EmptyResponse>.upload(urlString: "documents", data: Data(), contentType: "text/plain"),
        successHandler: { _ in screen.showSaved() }, errorHandler: { _ in })
    network.send(
        NetworkRequest<EmptyResponse>.upload(urlString: "documents", multipart: form),
        successHandler: { _ in screen.showSaved() }, errorHandler: { _ in })
}

/// The `async` forms, typed, and those that ignore the reply.
func asyncForms(network: NetworkLayer, todo: Todo, destination: URL) async throws(NetworkError) {
    let todos: [Todo] = try await network.get(urlString: "todos")
    let bytes: Data = try await network.get(urlString: "todos", query: ["page": "2"])
    let listed: [Todo] = try await network.request(TodoList())
    let created: Todo = try await network.post(urlString: "todos", body: todo)
    let updated: Todo = try await network.put(urlString: "todos/1", body: todo)
    let patched: Todo = try await network.patch(urlString: "todos/1", body: todo)
    let removed: EmptyResponse = try await network.delete(urlString: "todos/1")
    print(todos, bytes, listed, created, updated, patched, removed)
    try await network.requestIgnoringReply(TodoList())
    try await network.postIgnoringReply(urlString: "todos", body: todo)
    try await network.putIgnoringReply(urlString: "todos/1", body: todo)
    try await network.patchIgnoringReply(urlString: "todos/1", body: todo)
    try await network.deleteIgnoringReply(urlString: "todos/1")
    let response = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
    let file = try await network.send(.download(urlString: "files/report.pdf", to: destination)).value
    print(response.value, file)
}

/// A value typed by the function's result.
func typedByResult(network: NetworkLayer) async throws(NetworkError) -> [Todo] {
    try await network.get(urlString: "todos")
}

/// A subclass sees every request through `send`, the one open request method.
final class SpyLayer: NetworkLayer, @unchecked Sendable {
    override func send<Value>(
        _ request: NetworkRequest<Value>, successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        super.send(request, successHandler: successHandler, errorHandler: errorHandler)
    }
}
