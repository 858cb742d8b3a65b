import NetworkLayer

// Must not build (.ci/reply-form-check): `created` has no type, so the decoding `post` can't be chosen,
// and the call reaches the unavailable `post` whose error asks for the type or `postIgnoringReply`.

struct Todo: Codable {
    let id: Int
}

func create(_ todo: Todo, on network: NetworkLayer) async throws {
    let created = try await network.post(urlString: "https://api.example.com/todos", body: todo)
    print(created)
}
