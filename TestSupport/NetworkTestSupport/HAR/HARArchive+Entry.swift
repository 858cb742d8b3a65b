import Foundation

extension HARArchive {
    /// One HTTP exchange: a request, its response and how long it took.
    public struct Entry: Sendable, Equatable {
        /// When the request started.
        public var startedDateTime: Date
        /// Milliseconds from the start of the request to the end of the response: the sum of the
        /// ``timings``.
        public var time: Double
        /// The request as sent.
        public var request: Request
        /// The response as received.
        public var response: Response
        /// Where the time went.
        public var timings: Timings

        /// An entry; `time` is the sum of the timings.
        ///
        /// - Parameters:
        ///   - startedDateTime: When the request started.
        ///   - request: What was sent.
        ///   - response: What came back.
        ///   - timings: How long each phase took.
        public init(
            startedDateTime: Date, request: Request, response: Response, timings: Timings = Timings()
        ) {
            self.startedDateTime = startedDateTime
            self.time = timings.total
            self.request = request
            self.response = response
            self.timings = timings
        }
    }

    /// Where an exchange's time went, in milliseconds: `timings`. Browsers write `-1` for a phase that
    /// did not apply (no DNS lookup on a reused connection).
    public struct Timings: Sendable, Equatable {
        /// Sending the request.
        public var send: Double
        /// Waiting for the first byte of the response.
        public var wait: Double
        /// Receiving the response.
        public var receive: Double
        /// Queued before sending; `nil` when unknown.
        public var blocked: Double?
        /// Looking up the host name; `nil` when unknown.
        public var dns: Double?
        /// Opening the connection, TLS included; `nil` when unknown.
        public var connect: Double?
        /// The TLS handshake; `nil` when unknown.
        public var ssl: Double?

        /// Timings with these phases; the others unknown.
        ///
        /// - Parameters:
        ///   - send: Milliseconds spent sending the request.
        ///   - wait: Milliseconds waiting for the first byte of the reply.
        ///   - receive: Milliseconds receiving the reply.
        public init(send: Double = 0, wait: Double = 0, receive: Double = 0) {
            self.send = send
            self.wait = wait
            self.receive = receive
        }

        /// The milliseconds of every phase that applied, `ssl` excepted (it is part of `connect`).
        public var total: Double {
            [blocked, dns, connect, send, wait, receive].compactMap { $0 }.filter { $0 > 0 }.reduce(0, +)
        }
    }
}

extension HARArchive.Entry: Codable {
    private enum Keys: String, CodingKey {
        case startedDateTime, time, request, response, timings, cache
    }

    private struct Empty: Codable {}

    /// Reads an entry; only its request and response are required.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let started = fields.lenient(.startedDateTime, default: "")
        startedDateTime = HARCoding.date(from: started) ?? Date(timeIntervalSince1970: 0)
        request = try fields.decode(HARArchive.Request.self, forKey: .request)
        response = try fields.decode(HARArchive.Response.self, forKey: .response)
        timings = fields.lenient(.timings, default: HARArchive.Timings())
        time = fields.lenientNumber(.time) ?? timings.total
    }

    /// Writes the entry with an empty `cache`, as HAR 1.2 requires.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(HARCoding.string(from: startedDateTime), forKey: .startedDateTime)
        try fields.encode(time, forKey: .time)
        try fields.encode(request, forKey: .request)
        try fields.encode(response, forKey: .response)
        try fields.encode(Empty(), forKey: .cache)
        try fields.encode(timings, forKey: .timings)
    }
}

extension HARArchive.Timings: Codable {
    private enum Keys: String, CodingKey {
        case send, wait, receive, blocked, dns, connect, ssl
    }

    /// Reads the phases; a missing one is `0` (send, wait, receive) or unknown.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        self.init(
            send: fields.lenientNumber(.send) ?? 0, wait: fields.lenientNumber(.wait) ?? 0,
            receive: fields.lenientNumber(.receive) ?? 0)
        blocked = fields.lenientNumber(.blocked)
        dns = fields.lenientNumber(.dns)
        connect = fields.lenientNumber(.connect)
        ssl = fields.lenientNumber(.ssl)
    }

    /// Writes `send`, `wait` and `receive`, and the known optional phases.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        try fields.encode(send, forKey: .send)
        try fields.encode(wait, forKey: .wait)
        try fields.encode(receive, forKey: .receive)
        try fields.encodeIfPresent(blocked, forKey: .blocked)
        try fields.encodeIfPresent(dns, forKey: .dns)
        try fields.encodeIfPresent(connect, forKey: .connect)
        try fields.encodeIfPresent(ssl, forKey: .ssl)
    }
}
