import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a layer is made with: its public ``NetworkLayer/Configuration``, and the clock and in-process
/// responder that only the package chooses (a manual clock, a test double). Why one value: a class's two
/// designated initializers can't delegate to each other, so both store it and hand it to ``LayerParts``, and
/// the work is written once. Reads of a configuration's setting go through to it (`settings.baseURL`;
/// a write names it, `settings.configuration.timeout`), so a new setting is added to the configuration alone.
@dynamicMemberLookup
package struct LayerSettings {
    package var configuration: NetworkLayer.Configuration
    /// What every time-based decision of the layer reads and schedules through (see ``NetworkClock``).
    package var clock: any NetworkClock
    /// What answers every request in process instead of a session; `nil` sends them.
    package var responder: (any InProcessResponder)?

    package subscript<Value>(dynamicMember setting: KeyPath<NetworkLayer.Configuration, Value>) -> Value {
        configuration[keyPath: setting]
    }

    /// - Parameters:
    ///   - configuration: The public settings.
    ///   - clock: What every time-based decision of the layer reads and schedules through.
    ///   - responder: What answers every request in process; `nil` sends them.
    package init(
        _ configuration: NetworkLayer.Configuration, clock: any NetworkClock,
        responder: (any InProcessResponder)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        self.responder = responder
    }
}

/// What a layer builds from its settings, once, whichever initializer made it.
struct LayerParts {
    let monitorsQueue = Queues.monitors()
    let monitorGroup: MonitorGroup?
    let builder: RequestBuilder
    /// `nil` means the shared session. A request whose later attempts may start after the layer has gone
    /// keeps it too (see `SessionTransport`).
    let ownTransport: SessionTransport?
    /// A copy of the layer's session configuration for its streams' own session, made by the first stream.
    let streamConfiguration: URLSessionConfiguration?
    /// The shared requests in flight, by identity.
    let flights = InFlightRequests<SharingKey, SharedReply>()
    /// The one list of credential header names: the library's and the redirect policy's.
    let credentialHeaders: CredentialHeaderNames

    init(_ settings: LayerSettings) {
        // A layer without monitors runs none of their code.
        monitorGroup = settings.monitors.isEmpty ? nil : MonitorGroup(settings.monitors, on: monitorsQueue)
        // A token authenticator made without origins sends its token to this layer's origin only.
        for case let authenticator as BearerTokenAuthenticator in settings.interceptors {
            authenticator.adopt(baseURL: settings.baseURL, cache: settings.cache, clock: settings.clock)
        }
        credentialHeaders = CredentialHeaderNames(adding: settings.redirectPolicy.credentialHeaders)
        builder = RequestBuilder(
            resolver: URLResolver(baseURL: settings.baseURL), defaultHeaders: settings.defaultHeaders,
            credentialHeaders: credentialHeaders, encoder: settings.encoder, timeout: settings.timeout)
        ownTransport = settings.sessionConfiguration.map { SessionTransport(configuration: $0) }
        streamConfiguration = settings.sessionConfiguration?.copy() as? URLSessionConfiguration
    }
}
