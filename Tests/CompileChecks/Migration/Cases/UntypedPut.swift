// expect: 'put(urlString:body:headers:isolation:)' has been renamed to
// expect: 'putIgnoringReply(urlString:body:headers:isolation:)': to decode the reply, name its type
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo) async throws {
    let updated = try await network.put(urlString: "todos/1", body: todo)
    print(updated)
}
