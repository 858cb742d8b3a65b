import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves one connection of a ``LoopbackServer``: reads requests within its limits, hands each to the handler
/// and writes the answer, until either side closes, the connection idles out, or the server stops. Runs on the
/// connection's own thread.
struct LoopbackConnection {
    let socket: ClientSocket
    let limits: LoopbackLimits
    let handler: LoopbackServer.Handler

    /// Fields the server writes itself.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

    func run() {
        let socket = self.socket
        var parser = HTTPRequestParser(limits: limits) { socket.receive(until: $0) }
        while true {
            let head: RequestHead
            let request: LoopbackRequest
            // Waiting for the next request, the connection may give its place to a newcomer.
            if !parser.hasUnreadBytes { socket.slot.markIdle() }
            do throws(HTTPParseError) {
                guard let next = try parser.readHead() else { return }
                head = next
                let (body, _) = try parser.readBody(try parser.framing(of: head))
                request = LoopbackRequest(head: head, body: body)
            } catch {
                if let status = error.status {
                    _ = socket.send(ArraySlice(HTTPStatus.errorReply(status: status, detail: error.reason)))
                    socket.lingeringShutdown()
                }
                return
            }
            let responder = LoopbackResponder(queueCapacity: limits.maxQueuedBytes)
            handler(request, responder)
            switch responder.chosen {
            case .whole(let status, let headers, let body):
                let keepAlive = head.wantsKeepAlive
                let sendsBody = HTTPStatus.allowsBody(status) && head.method != "HEAD"
                var fields = headers.filter { !Self.framingFields.contains($0.name.lowercased()) }
                if HTTPStatus.allowsBody(status) { fields.append(("Content-Length", String(body.count))) }
                var bytes = Self.head(status: status, fields: fields, closes: !keepAlive)
                if sendsBody {
                    bytes.reserveCapacity(bytes.count + body.count)
                    bytes.append(contentsOf: body)
                }
                guard socket.send(ArraySlice(bytes), timeout: limits.sendTimeout), keepAlive else { return }
            case .stream(let status, let headers, let stream):
                let fields = headers.filter { !Self.framingFields.contains($0.name.lowercased()) }
                let head = Self.head(status: status, fields: fields, closes: true)
                if socket.send(ArraySlice(head), timeout: limits.sendTimeout) {
                    pump(stream)
                }
                stream.markClosed()
                return
            case nil:
                _ = socket.send(ArraySlice(HTTPStatus.errorReply(status: 500, detail: "no reply")))
                return
            }
        }
    }

    /// Writes what `stream` queues as the peer takes it, until the stream finishes, the peer closes the
    /// connection, the peer takes none of the queued bytes for ``LoopbackLimits/sendTimeout``, or the server
    /// stops. Whatever the peer sends meanwhile is read and dropped.
    private func pump(_ stream: LoopbackStream) {
        // Since when queued bytes wait for a peer that takes none; `nil` while it keeps up.
        var stalledSince: Date?
        while true {
            let (bytes, finishing) = stream.pending()
            if !bytes.isEmpty {
                guard let written = socket.sendAvailable(bytes) else { return }
                if written > 0 {
                    stream.consume(written)
                    stalledSince = nil
                    continue
                }
                stalledSince = stalledSince ?? Date()
            } else if finishing {
                return
            } else {
                stalledSince = nil
            }
            let outgoing = bytes.isEmpty ? 0 : Int16(POLLOUT)
            var watched = [
                pollfd(fd: socket.fd, events: Int16(POLLIN) | outgoing, revents: 0),
                pollfd(fd: stream.wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            let giveUp = stalledSince.flatMap { since in limits.sendTimeout.map { since + $0 } }
            guard socket.stopSignal.wait(forAny: &watched, until: giveUp) == .ready else { return }
            if watched[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !socket.discardAvailable() {
                return
            }
            if watched[1].revents != 0 { stream.drainWake() }
        }
    }

    /// A reply's status line and header section.
    private static func head(status: Int, fields: [(name: String, value: String)], closes: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        if closes { head += "Connection: close\r\n" }
        return Array((head + "\r\n").utf8)
    }
}
