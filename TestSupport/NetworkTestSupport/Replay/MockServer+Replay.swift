import Foundation

extension MockServer {
    /// A stopped server whose ``handler`` answers from `archive`'s entries (see
    /// ``replay(_:matchingBody:)``).
    ///
    /// - Parameters:
    ///   - archive: The recording to answer from.
    ///   - matchingBody: Whether a request must also have the recorded body (JSON compared by value, in any key order) to match an entry.
    ///   - maxRequestBodySize: The largest request body the server accepts; a larger one is answered with 413.
    public convenience init(
        replaying archive: HARArchive, matchingBody: Bool = false, maxRequestBodySize: Int = 16 * 1024 * 1024
    ) {
        self.init(maxRequestBodySize: maxRequestBodySize)
        replay(archive, matchingBody: matchingBody)
    }

    /// Makes ``handler`` answer from `archive`'s entries: by method, path and query (items in any order;
    /// the recorded host is ignored, the server being the host) and, when `matchingBody`, body; see
    /// ``HARReplay`` for the rules. Queued replies still come first.
    ///
    /// A request no entry matches is answered with `500` and a plain-text body naming the closest
    /// entries.
    ///
    /// URLs of a recorded origin (any host the archive's requests went to) in the replayed `Location`,
    /// `Content-Location` and `Link` fields point at this server instead, with their path and query as
    /// recorded, so a redirect or a `links["next"]` page is replayed too.
    ///
    /// - Parameters:
    ///   - archive: The recording to answer from.
    ///   - matchingBody: Whether a request must also have the recorded body (JSON compared by value, in any key order) to match an entry.
    @discardableResult
    public func replay(_ archive: HARArchive, matchingBody: Bool = false) -> HARReplay {
        let replay = HARReplay(archive, matchingBody: matchingBody, matchingHost: false)
        let recordedOrigins = ReplayOrigin.recordedOrigins(in: archive)
        handler = { request in
            switch replay.answer(ReplayRequest(request)) {
            case .success(let entry):
                var reply = ReplayedResponse.mockResponse(for: entry)
                // The server's own origin is the one the client reached it by.
                if let host = request.header("Host"), let server = URL(string: "http://\(host)"),
                    let origin = ReplayOrigin(recorded: recordedOrigins, server: server)
                {
                    reply.headers = origin.rewrite(reply.headers)
                }
                return reply
            case .failure(let miss): return MockResponse(status: 500, text: miss.message)
            }
        }
        return replay
    }
}
