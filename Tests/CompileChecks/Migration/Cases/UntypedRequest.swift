// expect: 'request(_:isolation:)' has been renamed to 'requestIgnoringReply(_:isolation:)': to decode the
// expect: reply, name its type
import Foundation
import NetworkLayer

func before(network: NetworkLayer) async throws {
    let todos = try await network.request(TodoList())
    print(todos)
}
