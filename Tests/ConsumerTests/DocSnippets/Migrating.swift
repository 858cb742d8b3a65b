import Foundation
import NetworkLayer

// The "after" samples of Migrating.md, each in a function that MigratingTests runs against the dummy.
// Their "before" forms are the compile-fail cases of Tests/CompileChecks/Migration (.ci/reply-form-check).

enum MigratingSnippets {
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

    /// Stands in for a screen: writes down what it was asked to show, and tells `onShow`.
    final class Screen {
        private(set) var shown: [String] = []
        private(set) var progressCalls = 0
        var onShow: () -> Void = {}

        func show(_ todos: [Todo], total: String?) { record("\(todos.count) todos of \(total ?? "?")") }
        func show(_ todo: Todo, at location: String?) { record("todo \(todo.id) at \(location ?? "?")") }
        func show(_ document: StoredDocument) { record("document \(document.id)") }
        func show(_ message: String) { record(message) }
        func showStatus(_ statusCode: Int) { record("status \(statusCode)") }
        func showSaved() { record("saved") }
        func showProgress(_ fraction: Double) { progressCalls += 1 }
        func open(_ file: URL) { record("opened \(file.lastPathComponent)") }

        private func record(_ line: String) {
            shown.append(line)
            onShow()
        }
    }

    // MARK: - Transfers

    static func downloadFromURL(network: NetworkLayer, destination: URL, screen: Screen) {
        var request = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
        request.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        network.send(
            request,
            successHandler: { response in screen.open(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func downloadFromEndpoint(network: NetworkLayer, destination: URL, screen: Screen) {
        network.send(
            .download(ReportFile(), to: destination, options: .replaceExisting),
            successHandler: { response in screen.open(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadFile(network: NetworkLayer, reportURL: URL, screen: Screen) {
        network.send(
            NetworkRequest<StoredDocument>.upload(
                urlString: "documents", fileURL: reportURL, contentType: "application/pdf"),
            successHandler: { response in screen.show(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadFileIgnoringReply(network: NetworkLayer, photoURL: URL, screen: Screen) {
        network.send(
            NetworkRequest<EmptyResponse>.upload(urlString: "avatars", fileURL: photoURL),
            successHandler: { _ in screen.showSaved() },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadData(network: NetworkLayer, pdf: Data, screen: Screen) {
        network.send(
            NetworkRequest<StoredDocument>.upload(
                urlString: "documents", data: pdf, contentType: "application/pdf"),
            successHandler: { response in screen.show(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadDataIgnoringReply(network: NetworkLayer, jpeg: Data, screen: Screen) {
        network.send(
            NetworkRequest<EmptyResponse>.upload(
                urlString: "avatar", method: .put, data: jpeg, contentType: "image/jpeg"),
            successHandler: { _ in screen.showSaved() },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadMultipart(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
        var upload = NetworkRequest<StoredDocument>.upload(urlString: "documents", multipart: form)
        upload.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        network.send(
            upload,
            successHandler: { response in screen.show(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func uploadMultipartIgnoringReply(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
        network.send(
            NetworkRequest<EmptyResponse>.upload(urlString: "documents", multipart: form),
            successHandler: { _ in screen.showSaved() },
            errorHandler: { error in screen.show(error.message) })
    }

    // MARK: - Whole responses

    static func requestWholeResponse(network: NetworkLayer, screen: Screen) {
        network.send(
            NetworkRequest<[Todo]>(TodoList()),
            successHandler: { response in
                screen.show(response.value, total: response.headers["X-Total-Count"])
            },
            errorHandler: { error in screen.show(error.message) })
    }

    static func getWholeResponse(network: NetworkLayer, screen: Screen) {
        network.send(
            NetworkRequest<[Todo]>(urlString: "todos", query: ["page": "2"]),
            successHandler: { response in
                screen.show(response.value, total: response.headers["X-Total-Count"])
            },
            errorHandler: { error in screen.show(error.message) })
    }

    static func postWholeResponse(network: NetworkLayer, todo: Todo, screen: Screen) {
        network.send(
            NetworkRequest<Todo>(method: .post, urlString: "todos", body: .json(todo)),
            successHandler: { response in screen.show(response.value, at: response.headers["Location"]) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func putWholeResponse(network: NetworkLayer, todo: Todo, screen: Screen) {
        network.send(
            NetworkRequest<Todo>(method: .put, urlString: "todos/1", body: .json(todo)),
            successHandler: { response in screen.show(response.value, at: response.headers["Location"]) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func patchWholeResponse(network: NetworkLayer, todo: Todo, screen: Screen) {
        network.send(
            NetworkRequest<Todo>(method: .patch, urlString: "todos/1", body: .json(todo)),
            successHandler: { response in screen.show(response.value, at: response.headers["Location"]) },
            errorHandler: { error in screen.show(error.message) })
    }

    static func deleteWholeResponse(network: NetworkLayer, screen: Screen) {
        network.send(
            NetworkRequest<EmptyResponse>(method: .delete, urlString: "todos/1"),
            successHandler: { response in screen.showStatus(response.statusCode) },
            errorHandler: { error in screen.show(error.message) })
    }

    // MARK: - async

    static func ignoringReplies(network: NetworkLayer, todo: Todo) async throws {
        try await network.requestIgnoringReply(TodoList())
        try await network.postIgnoringReply(urlString: "todos", body: todo)
        try await network.putIgnoringReply(urlString: "todos/1", body: todo)
        try await network.patchIgnoringReply(urlString: "todos/1", body: todo)
        try await network.deleteIgnoringReply(urlString: "todos/1")
    }

    static func typedReplies(network: NetworkLayer, todo: Todo) async throws -> [Todo] {
        let todos: [Todo] = try await network.get(urlString: "todos")
        let listed: [Todo] = try await network.request(TodoList())
        let created: Todo = try await network.post(urlString: "todos", body: todo)
        let updated: Todo = try await network.put(urlString: "todos/1", body: todo)
        let patched: Todo = try await network.patch(urlString: "todos/1", body: todo)
        let removed: Todo = try await network.delete(urlString: "todos/1")
        return todos + listed + [created, updated, patched, removed]
    }

    // MARK: - Other changes

    /// Runs the app's own clean-up, then cancels what is in flight: `cancelAll()` can't be overridden.
    final class Session {
        let network: NetworkLayer
        var onSignOut: () -> Void = {}

        init(network: NetworkLayer) { self.network = network }

        func signOut() {
            onSignOut()
            network.cancelAll()
        }
    }

    static func owner(of request: OutboxRequest) -> String {
        let owner = request.account.id
        return owner ?? "anyone"
    }

    static func show(_ error: NetworkError, on screen: Screen) {
        switch error {
        case .cancelled:
            break
        case .timedOut, .transport, .tooManyReconnects:
            screen.show("Check your connection.")
        case .rateLimited:
            screen.show("The server is busy; try again later.")
        case .invalidURL, .encodingFailed, .invalidHeader, .invalidRequest, .unacceptableStatusCode,
            .unacceptableContentType, .emptyResponse, .decodingFailed, .invalidResponse, .custom,
            .resumableUploadUnsupported, .sourceFileChanged:
            screen.show(error.message)
        }
    }

    static func show(_ response: NetworkResponse<[Todo]>, on screen: Screen) {
        switch response.cacheStatus {
        case .network, .revalidated:
            screen.show(response.value, total: nil)
        case .hit, .staleHit, .staleWhileRevalidating:
            screen.show(response.value, total: "saved")
        case .stale:
            screen.show(response.value, total: "offline")
        }
    }
}
