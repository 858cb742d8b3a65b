import Foundation
import NetworkLayer

// Code that calls the async forms from each kind of isolation an app has. This file compiling in Swift 6
// mode with zero warnings is part of the proof: each caller keeps a `NetworkRequest` (not `Sendable`) in
// its own state and passes it to `send`, and gets back a reply type that is not `Sendable` either.

/// A reply type that is not `Sendable`, as an app's model class may be.
final class Note: Codable {
    let id: Int
    var text: String

    init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

/// Every form once, from a function isolated to no actor.
func callEveryAsyncForm(on network: NetworkLayer) async throws(NetworkError) -> [String] {
    var log: [String] = []
    let todos: [Todo] = try await network.get(urlString: "todos", query: ["page": "1"])
    log.append("get \(todos.count)")
    let created: Todo = try await network.post(urlString: "todos", body: Todo(id: 3, title: "New"))
    log.append("post \(created.title)")
    try await network.postIgnoringReply(urlString: "todos/3/seen", body: ["seen": true])
    log.append("post")
    let replaced: Todo = try await network.put(urlString: "todos/3", body: created)
    log.append("put \(replaced.id)")
    try await network.putIgnoringReply(urlString: "todos/3", body: created)
    log.append("put")
    let patched: Todo = try await network.patch(urlString: "todos/3", body: ["title": "Newer"])
    log.append("patch \(patched.title)")
    try await network.patchIgnoringReply(urlString: "todos/3", body: ["title": "Newer"])
    log.append("patch")
    let removed: Todo = try await network.delete(urlString: "todos/3")
    log.append("delete \(removed.id)")
    try await network.deleteIgnoringReply(urlString: "todos/3")
    log.append("delete")
    let notes: [Note] = try await network.request(NotesAPI.list)
    log.append("request \(notes.count)")
    try await network.requestIgnoringReply(NotesAPI.clear)
    log.append("request")
    let response = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
    log.append("send \(response.statusCode) \(response.value.count)")
    return log
}

enum NotesAPI: Endpoint {
    case list, clear

    var path: String { "notes" }
    var method: HTTPMethod { self == .list ? .get : .delete }
}

/// A main-actor screen model that keeps its request in a property.
@MainActor
final class NotesScreenModel {
    let network: NetworkLayer
    var request = NetworkRequest<[Note]>(method: .post, urlString: "notes/search", body: .json(["since": 1]))
    private(set) var notes: [Note] = []

    init(network: NetworkLayer) {
        self.network = network
    }

    func load() async throws(NetworkError) {
        notes = try await network.send(request).value
    }

    func loadWithoutKeepingTheRequest() async throws(NetworkError) -> Int {
        let fresh: [Note] = try await network.get(urlString: "notes")
        notes = fresh
        return notes.count
    }
}

/// An actor that keeps its request and its (not `Sendable`) notes in its own state.
actor NotesStore {
    let network: NetworkLayer
    var request = NetworkRequest<[Note]>(urlString: "notes")
    private var notes: [Note] = []

    init(network: NetworkLayer) {
        self.network = network
    }

    func refresh() async throws(NetworkError) -> [String] {
        notes = try await network.send(request).value
        let more: [Note] = try await network.get(urlString: "notes", headers: ["X-Page": "2"])
        notes += more
        try await network.deleteIgnoringReply(urlString: "notes/1")
        return notes.map(\.text)
    }
}
