import NetworkLayer

// The authenticator calls its refresh off the main actor, so its closure is `@Sendable`: in a
// MainActor-default module it can call into a main-actor type only by hopping there itself.
final class Session: Sendable {
    func refresh(completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) {
        completion(.success("token"))
    }
}

func makeAuthenticator(session: Session) -> BearerTokenAuthenticator {
    BearerTokenAuthenticator(accessToken: nil) { completion in
        session.refresh(completion: completion)
    }
}
