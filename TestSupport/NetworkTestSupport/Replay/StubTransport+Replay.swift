import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension StubTransport {
    /// Answers every request from `archive`'s entries: by method, URL (host included, query items in any
    /// order) and, when `matchingBody`, body; see ``HARReplay`` for the rules.
    ///
    /// A request no entry matches fails with a `URLError` whose description names the closest entries.
    /// Stubs added later take precedence, so a test can replace one recorded answer.
    ///
    /// ```swift
    /// let stubs = StubTransport()
    /// let replay = stubs.replay(try HARArchive(contentsOf: harFile))
    /// let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com/v1/"))
    /// ```
    ///
    /// - Parameters:
    ///   - archive: The recording to answer from.
    ///   - matchingBody: Whether a request must also have the recorded body (JSON compared by value, in any key order) to match an entry.
    @discardableResult
    public func replay(_ archive: HARArchive, matchingBody: Bool = false) -> HARReplay {
        let replay = HARReplay(archive, matchingBody: matchingBody, matchingHost: true)
        stub(nil, .any) { request in
            switch replay.answer(ReplayRequest(request)) {
            case .success(let entry):
                return ReplayedResponse.stubResponse(for: entry)
            case .failure(let miss):
                return .failure(
                    URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: miss.message]))
            }
        }
        return replay
    }
}
