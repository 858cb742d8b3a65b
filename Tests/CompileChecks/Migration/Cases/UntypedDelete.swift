// expect: 'delete(urlString:headers:isolation:)' has been renamed to
// expect: 'deleteIgnoringReply(urlString:headers:isolation:)': to decode the reply, name its type
import Foundation
import NetworkLayer

func before(network: NetworkLayer) async throws {
    let removed = try await network.delete(urlString: "todos/1")
    print(removed)
}
