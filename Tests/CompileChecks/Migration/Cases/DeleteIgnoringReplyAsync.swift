// expect: 'delete(urlString:headers:isolation:)' has been renamed to
// expect: 'deleteIgnoringReply(urlString:headers:isolation:)'
import Foundation
import NetworkLayer

func before(network: NetworkLayer) async throws {
    try await network.delete(urlString: "todos/1")
}
