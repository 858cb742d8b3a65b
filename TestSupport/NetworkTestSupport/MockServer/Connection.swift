import Foundation
import LoopbackHTTP

/// Serves one accepted TCP connection: reads requests, records them and answers them
/// until either side closes the connection or the server stops. Runs on its own thread.
struct Connection {
    let socket: ClientSocket
    let id: Int
    let state: ServerState
    let limits: LoopbackLimits

    /// Serves until the connection ends; the listener closes the socket afterwards.
    func run() {
        let socket = self.socket
        var parser = HTTPRequestParser(limits: limits) { socket.receive(until: $0) }
        while true {
            let request: MockServerRequest
            let choice: ServerState.ReplyChoice
            do throws(HTTPParseError) {
                guard let head = try parser.readHead() else { return }
                if let receiver = state.bodyReceiver(for: head, connectionID: id) {
                    guard try stream(head, to: receiver, parser: &parser) else { return }
                    continue
                }
                let framing = try parser.framing(of: head)
                guard continueIfExpected(head, framing) else { return }
                let (body, length) = try parser.readBody(framing, keeping: !state.discardsBodies)
                (request, choice) = state.record(head: head, body: body, bodyLength: length, connectionID: id)
            } catch {
                refuse(error)
                return
            }
            guard respond(with: state.response(for: request, choice: choice), to: request) else { return }
        }
    }

    /// Answers a request that could not be read, as MockServer always has: an oversized head is a
    /// malformed request (400), not a 414 or 431.
    private func refuse(_ error: HTTPParseError) {
        var status = error.status
        var detail = "request too large"
        switch error {
        case .malformed(let reason):
            detail = reason
        case .requestLineTooLong, .headTooLarge:
            (status, detail) = (400, "header section too large")
        default:
            break
        }
        guard let status else { return }
        _ = socket.send(ArraySlice(HTTPStatus.errorReply(status: status, detail: detail)))
        socket.lingeringShutdown()
    }

    /// Sends `100 Continue` when the client waits for it before a body; `false` if the peer went away.
    private func continueIfExpected(_ head: RequestHead, _ framing: BodyFraming) -> Bool {
        guard framing != .empty, head.header("Expect")?.lowercased() == "100-continue" else { return true }
        return socket.send(ArraySlice("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Hands the body of the request with `head` to `receiver` as it arrives, records the request with the
    /// body's length, and answers it with the receiver's reply; `true` if the connection stays open.
    private func stream(
        _ head: RequestHead, to receiver: MockBodyReceiver, parser: inout HTTPRequestParser
    ) throws(HTTPParseError) -> Bool {
        let framing = try parser.framing(of: head, limited: false)
        if let reply = receiver.immediateReply {
            // The body stays unread: close after the reply, and let the peer read it before the close.
            let request = state.recordStreamed(head: head, bodyLength: 0, connectionID: id)
            var closing = reply
            closing.headers.append((name: "Connection", value: "close"))
            _ = respond(with: closing, to: request)
            socket.lingeringShutdown()
            return false
        }
        guard continueIfExpected(head, framing) else { throw .connectionClosed }
        var length = 0
        let complete: Bool
        do throws(HTTPParseError) {
            complete = try parser.streamBody(framing, limit: receiver.cutsAfterBytes ?? .max) { piece in
                length += piece.count
                receiver.receive(Data(piece))
            }
        } catch {
            _ = receiver.finish(.dropped)
            _ = state.recordStreamed(head: head, bodyLength: length, connectionID: id)
            throw error
        }
        // A cut at the body's very end loses only the reply.
        let isCut = !complete || length == receiver.cutsAfterBytes
        let reply = receiver.finish(isCut ? .cut : .complete)
        let request = state.recordStreamed(head: head, bodyLength: length, connectionID: id)
        // A cut closes with the rest of the body unread: the peer's send fails, as when a network drops.
        return !isCut && respond(with: reply, to: request)
    }

    /// Writes `response`, applying its delays, throttle and fault; `true` if the
    /// connection stays open for another request.
    private func respond(with response: MockResponse, to request: MockServerRequest) -> Bool {
        switch response.fault {
        case .disconnectAtStart?, .disconnectAfterRequest?:
            return false
        case .stall?:
            socket.discardUntilPeerCloses()
            return false
        case .disconnectMidBody?, nil:
            break
        }
        var encoded = ResponseEncoder.encode(response, for: request)
        let stopSignal = socket.stopSignal
        if response.delayBeforeHeaders > 0 {
            guard stopSignal.sleep(response.delayBeforeHeaders) else { return false }
        }
        let first = encoded.body.next()
        let sender = BodySender(socket: socket, throttle: response.throttle)
        if response.delayBeforeBody > 0 || response.throttle != nil {
            guard socket.send(ArraySlice(encoded.head)) else { return false }
            if response.delayBeforeBody > 0, first != nil {
                guard stopSignal.sleep(response.delayBeforeBody) else { return false }
            }
            guard sender.send(first, then: &encoded.body) else { return false }
        } else {
            // Head and first piece in one write: an in-memory reply leaves in a single send.
            guard socket.send(ArraySlice(encoded.head + (first ?? []))) else { return false }
            guard sender.send(nil, then: &encoded.body) else { return false }
        }
        return !encoded.closesConnection && !encoded.body.endedShort
    }
}
