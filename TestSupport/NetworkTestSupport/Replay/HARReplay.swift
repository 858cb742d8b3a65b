import Foundation
import NetworkLayer

/// An archive being replayed by a ``StubTransport`` or a ``MockServer``: which entry answers each
/// request, and what went unanswered.
///
/// A request is answered by an entry with the same method, path and query (items in any order; a
/// recorded `<redacted>` value stands for any value), the same origin (scheme, host and port) through a
/// `StubTransport` (a `MockServer` is its own origin), and, when matching bodies, the same body (equal
/// bytes, or equal JSON in any key order). When several entries match, they answer in the order
/// recorded, and the last one answers again once they all have.
///
/// A request no entry matches is answered with a failure naming the closest entries (same path other
/// query, same URL other method, other body…): a `URLError` through `StubTransport`, a `500` whose body
/// is the message through `MockServer`. ``failures`` keeps the messages.
public final class HARReplay: Sendable {
    /// The archive replayed.
    public let archive: HARArchive
    /// Whether a request's body must match too.
    public let matchesBody: Bool
    /// Whether a request's origin must match: `false` for a `MockServer`.
    let matchesHost: Bool
    private let recorded: [ReplayRequest]
    private let state: Locked<State>

    private struct State {
        /// How many requests each entry has answered, by index.
        var plays: [Int]
        var misses: [String] = []
    }

    init(_ archive: HARArchive, matchingBody: Bool, matchingHost: Bool) {
        self.archive = archive
        matchesBody = matchingBody
        matchesHost = matchingHost
        recorded = archive.entries.map(ReplayRequest.init)
        state = Locked(State(plays: Array(repeating: 0, count: archive.entries.count)))
    }

    /// The message of each request no entry matched, in order.
    public var failures: [String] {
        state.withLock { $0.misses }
    }

    /// The entries that have not answered a request yet, in order: what the code under test did not ask.
    public var unplayedEntries: [HARArchive.Entry] {
        state.withLock { state in zip(archive.entries, state.plays).filter { $0.1 == 0 }.map(\.0) }
    }

    /// The entry that answers `request`, or the message saying why none does.
    func answer(_ request: ReplayRequest) -> Result<HARArchive.Entry, ReplayMiss> {
        let matching = recorded.indices.filter {
            request.differences(from: recorded[$0], comparingHost: matchesHost, comparingBody: matchesBody)
                .isEmpty
        }
        return state.withLock { state in
            guard let last = matching.last else {
                let miss = ReplayMiss(request: request, replay: self, recorded: recorded)
                state.misses.append(miss.message)
                return .failure(miss)
            }
            let index = matching.first { state.plays[$0] == 0 } ?? last
            state.plays[index] += 1
            return .success(archive.entries[index])
        }
    }
}
