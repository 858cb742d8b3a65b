// expect: 'request(_:isolation:)' has been renamed to 'requestIgnoringReply(_:isolation:)'
import Foundation
import NetworkLayer

func before(network: NetworkLayer) async throws {
    try await network.request(TodoList())
}
