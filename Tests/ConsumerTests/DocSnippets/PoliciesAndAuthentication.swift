import NetworkLayer

// The samples of PoliciesAndAuthentication.md that no other file of this target holds; compiled, not run.

enum PoliciesAndAuthenticationSnippets {
    @MainActor
    final class SignInScreen {
        func show() {}
    }

    static func signOutWhenTheSessionEnds(
        _ authenticator: BearerTokenAuthenticator, signIn: SignInScreen
    ) {
        authenticator.sessionEndedHandler = { _ in
            Task { @MainActor in signIn.show() }  // called off the main queue: hop
        }
    }
}
