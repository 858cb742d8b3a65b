// expect: 'get(urlString:query:headers:isolation:)' is unavailable: name the reply's type
import Foundation
import NetworkLayer

func before(network: NetworkLayer) async throws {
    let todos = try await network.get(urlString: "todos")
    print(todos)
}
