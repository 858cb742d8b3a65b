/// The one list of request header names that carry credentials: the library's own (``Credentials/headers``)
/// and those an app adds through ``RedirectPolicy/credentialHeaders``, the layer's policy's and, for one
/// request, its own policy's too (``NetworkLayer/credentialHeaders(for:)``). Asked by redaction (the
/// logger's lines and curl commands, HAR archives: through ``MonitoredRequest/credentialHeaders``),
/// forwarding (a redirect, a hop of a composed call to another origin, the origin the layer's default
/// headers on the list go to) and storage (the outbox and the transfer store refuse them). Why one value:
/// three lists that disagreed let `X-Api-Key` reach the disk and another origin.
package struct CredentialHeaderNames: Sendable, Hashable {
    /// The app's names besides the library's, lowercased.
    package let extra: Set<String>
    /// Every name on the list, lowercased and sorted: made once, as the cache reads it for every lookup and
    /// store.
    package let all: [String]

    /// The library's list and `extra` (any case).
    package init(adding extra: some Sequence<String> = [String]()) {
        self.extra = Set(extra.map { $0.lowercased() }).subtracting(Credentials.headers)
        all = Credentials.headers.union(self.extra).sorted()
    }

    /// This list with `names` (any case) added: a request's own ``RedirectPolicy/credentialHeaders`` on
    /// top of its layer's.
    package func adding(_ names: some Sequence<String>) -> CredentialHeaderNames {
        CredentialHeaderNames(adding: extra.union(names.map { $0.lowercased() }))
    }

    /// Whether `name` (any case) carries a credential.
    package func contains(_ name: String) -> Bool {
        let name = name.lowercased()
        return Credentials.headers.contains(name) || extra.contains(name)
    }

    /// The names in `headers` that carry credentials, as `headers` spells them, sorted.
    package func credentials(in headers: [String: String]) -> [String] {
        headers.keys.filter(contains).sorted()
    }

    /// Why a store that outlives the process (`what`: "The outbox") refuses a request carrying the
    /// credential headers `names`, and the route that works. One sentence for the outbox and the transfer
    /// store, so the advice can't drift. Why refuse rather than drop: a credential left out in silence
    /// makes the stored request fail after a relaunch, a dead letter the app can't explain.
    package static func storageRefusal(_ names: [String], by what: String) -> String {
        let list = names.map { "`\($0)`" }.joined(separator: ", ")
        return "\(what) doesn't write credential headers to disk, and this request carries \(list): add "
            + "credentials when the request is sent, with an interceptor on the layer (RequestInterceptor), "
            + "or BearerTokenAuthenticator for a bearer token."
    }
}
