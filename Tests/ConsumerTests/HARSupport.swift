import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A HAR file from this target's resources (`resources: [.copy("Fixtures")]`).
func harFixture(_ name: String) throws -> URL {
    try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "har", subdirectory: "Fixtures"))
}

/// The session recorded in Fixtures/todos.har, a Chrome export, played by the real layer against
/// `https://api.example.com/` (or a server replaying it): what each request got.
struct TodoSession: Equatable {
    var todos: [Todo]?
    var secondPage: [Todo]?
    var created: Todo?
    var fetched: Todo?
    var deleted = false
    var fetchedAfterDelete: Int?
    var avatar: Data?

    static let expected = TodoSession(
        todos: [Todo(id: 1, title: "Write tests"), Todo(id: 2, title: "Ship it")], secondPage: [],
        created: Todo(id: 3, title: "Buy milk"), fetched: Todo(id: 3, title: "Buy milk"), deleted: true,
        fetchedAfterDelete: 404, avatar: Data(base64Encoded: Self.avatarBase64))

    static let avatarBase64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    /// Plays the session: the list, its second page (query items in another order than recorded), a
    /// POST, the new todo, its deletion, the todo again (404), and a PNG.
    static func play(on network: NetworkLayer) async -> TodoSession {
        var session = TodoSession()
        session.todos = await outcome { () async throws(NetworkError) -> [Todo] in
            try await network.get(urlString: "todos")
        }.value
        session.secondPage = await outcome { () async throws(NetworkError) -> [Todo] in
            try await network.get(urlString: "todos", query: ["limit": "2", "page": "2"])
        }.value
        session.created = await outcome { () async throws(NetworkError) -> Todo in
            try await network.post(urlString: "todos", body: Todo(id: 3, title: "Buy milk"))
        }.value
        session.fetched = await outcome { () async throws(NetworkError) -> Todo in
            try await network.get(urlString: "todos/3")
        }.value
        session.deleted =
            await outcome { () async throws(NetworkError) in
                try await network.deleteIgnoringReply(urlString: "todos/3")
            }
            .value != nil
        let gone = await outcome { () async throws(NetworkError) -> Todo in
            try await network.get(urlString: "todos/3")
        }
        if case .failure(let error) = gone { session.fetchedAfterDelete = error.statusCode }
        session.avatar = await outcome { () async throws(NetworkError) -> Data in
            try await network.get(urlString: "avatar.png")
        }.value
        return session
    }
}
