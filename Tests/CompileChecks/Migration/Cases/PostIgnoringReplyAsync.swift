// expect: 'post(urlString:body:headers:isolation:)' has been renamed to
// expect: 'postIgnoringReply(urlString:body:headers:isolation:)'
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    try await network.post(urlString: "todos", body: todo)
}
