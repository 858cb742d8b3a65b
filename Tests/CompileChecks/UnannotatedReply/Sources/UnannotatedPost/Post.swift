import NetworkLayer

// Must not build with warnings as errors (.ci/reply-form-check): `created` has no type, so the decoding
// `post` can't be chosen, and the form that drops the reply is not chosen silently.

struct Todo: Codable {
    let id: Int
}

func create(_ todo: Todo, on network: NetworkLayer) async throws {
    let created = try await network.post(urlString: "https://api.example.com/todos", body: todo)
    print(created)
}
