// expect: 'patch(urlString:body:headers:isolation:)' has been renamed to
// expect: 'patchIgnoringReply(urlString:body:headers:isolation:)': to decode the reply, name its type
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    let patched = try await network.patch(urlString: "todos/1", body: todo)
    print(patched)
}
