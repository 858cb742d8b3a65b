import Foundation
import NetworkLayer

/// A per-request stub of ``DummyNetworkLayer``: its outcomes are used in order, then the last repeats.
/// One that scripts cache then network answers every request only the cache may answer with `stored`.
struct DummyStub {
    let method: HTTPMethod
    let pattern: DummyURLPattern
    let outcomes: [DummyOutcome]
    let stored: DummyOutcome?
    private var used = 0

    init(method: HTTPMethod, pattern: DummyURLPattern, outcomes: [DummyOutcome], stored: DummyOutcome? = nil)
    {
        self.method = method
        self.pattern = pattern
        self.outcomes = outcomes
        self.stored = stored
    }

    func matches(_ request: RecordedRequest) -> Bool {
        method == request.method && pattern.matches(request.url)
    }

    /// The next outcome, or `nil` when the stub was given none. A request only the cache may answer
    /// takes `stored` when there is one, and leaves the network's sequence where it is.
    mutating func next(cacheOnly: Bool) -> DummyOutcome? {
        if cacheOnly, let stored { return stored }
        guard let last = outcomes.last else { return nil }
        defer { used += 1 }
        return used < outcomes.count ? outcomes[used] : last
    }

    var description: String { "\(method.rawValue) \(pattern)" }
}

/// Everything mutable in a ``DummyNetworkLayer``; only ever touched through its `Locked` wrapper.
/// Handlers never run while its lock is held, so they may call the layer.
struct DummyState {
    var successResponse: Any?
    var errorResponse: NetworkError?
    var deliveryQueue: DispatchQueue?
    var holdsReplies = false
    /// Held requests not yet released or cancelled, and the tasks waiting for one.
    var held = DummyHeldRequests()
    var stubs: [DummyStub] = []
    var recorded: [RecordedRequest] = []
    var refused: [RefusedRequest] = []
    var cancelled: [RecordedRequest] = []
    var endpoints: [any Endpoint] = []
    var scriptedProgress: [TransferProgress]?

    /// Records `request` and picks what answers it, in one step: the most recently added matching stub
    /// (advancing its sequence), or else the layer-wide responses. `cacheOnly`: only the cache may answer
    /// it (``CachePolicy/returnCacheDataDontLoad``).
    mutating func record(_ request: RecordedRequest, cacheOnly: Bool) -> DummySource {
        recorded.append(request)
        return source(for: request, cacheOnly: cacheOnly)
    }

    /// Picks what answers `request`: the most recently added matching stub (advancing its sequence), or
    /// else the layer-wide responses. A held request asks when it is released.
    mutating func source(for request: RecordedRequest, cacheOnly: Bool) -> DummySource {
        if let index = stubs.lastIndex(where: { $0.matches(request) }) {
            return .stub(stubs[index].description, stubs[index].next(cacheOnly: cacheOnly))
        }
        return .layerWide(
            successResponse: successResponse, errorResponse: errorResponse,
            stubs: stubs.map(\.description))
    }
}
