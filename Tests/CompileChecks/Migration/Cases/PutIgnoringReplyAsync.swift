// expect: 'put(urlString:body:headers:isolation:)' has been renamed to
// expect: 'putIgnoringReply(urlString:body:headers:isolation:)'
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    try await network.put(urlString: "todos/1", body: todo)
}
