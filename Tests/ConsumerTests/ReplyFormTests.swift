import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Runs `body`; compiles only when its result is a `T`: a check made by the compiler, not at run time.
func expectResult<T>(of body: () async throws -> T, is _: T.Type) async throws {
    _ = try await body()
}

/// Issue 19, defect 10: the `async` forms that ignore the reply have names of their own, so the form
/// that drops the reply is always chosen on purpose. (An unannotated `let x = try await network.post(...)`
/// meets only an unavailable `post` whose error asks for the reply's type; `.ci/reply-form-check` proves
/// that it does not build.)
final class ReplyFormTests: XCTestCase {
    private let todo = Todo(id: 3, title: "New")

    func testEachFormsResultTypeIsTheOneItsNameSays() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com/"))
        network.successResponse = todo

        let created: Todo = try await network.post(urlString: "todos", body: todo)
        try await expectResult(
            of: { try await network.postIgnoringReply(urlString: "todos", body: todo) }, is: Void.self)
        let replaced: Todo = try await network.put(urlString: "todos/3", body: todo)
        try await expectResult(
            of: { try await network.putIgnoringReply(urlString: "todos/3", body: todo) }, is: Void.self)
        let patched: Todo = try await network.patch(urlString: "todos/3", body: todo)
        try await expectResult(
            of: { try await network.patchIgnoringReply(urlString: "todos/3", body: todo) }, is: Void.self)
        let deleted: Todo = try await network.delete(urlString: "todos/3")
        try await expectResult(
            of: { try await network.deleteIgnoringReply(urlString: "todos/3") }, is: Void.self)
        try await expectResult(of: { try await network.post(urlString: "todos", body: todo) }, is: Todo.self)

        XCTAssertEqual([created, replaced, patched, deleted], [todo, todo, todo, todo])
        XCTAssertEqual(
            network.recordedRequests.map(\.method),
            [.post, .post, .put, .put, .patch, .patch, .delete, .delete, .post])
    }
}
