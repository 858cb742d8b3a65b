// expect: 'post(urlString:body:headers:isolation:)' has been renamed to
// expect: 'postIgnoringReply(urlString:body:headers:isolation:)': to decode the reply, name its type
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    let created = try await network.post(urlString: "todos", body: todo)
    print(created)
}
