// expect: 'patch(urlString:body:headers:isolation:)' has been renamed to
// expect: 'patchIgnoringReply(urlString:body:headers:isolation:)'
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    try await network.patch(urlString: "todos/1", body: todo)
}
