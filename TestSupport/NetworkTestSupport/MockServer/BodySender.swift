import LoopbackHTTP

/// Writes a reply body to a connection's socket as fast as the peer reads it, or paced by a
/// ``MockResponse/Throttle``, pulling the body's pieces only as they are needed.
struct BodySender {
    let socket: ClientSocket
    let throttle: MockResponse.Throttle?

    /// Writes `first` (`nil`: nothing was taken from `body` yet, or it had nothing), then every
    /// piece `body` still produces; `false` as soon as the peer goes away or the server stops.
    func send(_ first: [UInt8]?, then body: inout WireBody) -> Bool {
        guard let throttle else {
            var piece = first ?? body.next()
            while let bytes = piece {
                guard write(bytes) else { return false }
                piece = body.next()
            }
            return true
        }
        return sendPaced(first ?? [], then: &body, throttle: throttle)
    }

    /// Writes exactly `throttle.bytes` at a time (fewer only at the end), gathering pieces as
    /// needed, with `throttle.period` between writes.
    private func sendPaced(_ first: [UInt8], then body: inout WireBody, throttle: MockResponse.Throttle)
        -> Bool
    {
        let step = max(1, throttle.bytes)
        var pending = first
        var sent = 0
        var ended = false
        var wroteBefore = false
        while true {
            while pending.count - sent < step, !ended {
                guard let piece = body.next() else {
                    ended = true
                    break
                }
                guard !piece.isEmpty || !socket.stopSignal.hasFired else { return false }
                if sent > 0 {
                    pending.removeFirst(sent)
                    sent = 0
                }
                pending += piece
            }
            guard sent < pending.count else { return true }
            if wroteBefore {
                guard socket.stopSignal.sleep(throttle.period) else { return false }
            }
            let end = min(sent + step, pending.count)
            guard socket.send(pending[sent..<end]) else { return false }
            sent = end
            wroteBefore = true
        }
    }

    /// Writes one piece. An empty one writes nothing, but a producer that keeps returning empty
    /// pieces must not hold off `stop()`.
    private func write(_ bytes: [UInt8]) -> Bool {
        bytes.isEmpty ? !socket.stopSignal.hasFired : socket.send(ArraySlice(bytes))
    }
}
