import Foundation

/// A change the tabs are told as a server-sent event: an upsert of one record, or a whole-store event.
enum InspectorEvent: Sendable {
    case request(RequestRecord)
    case stream(StreamRecord)
    case transfer(TransferRecord)
    case outbox(OutboxRecord)
    /// The store was cleared.
    case clear
    /// This tab missed events (its queue was full): it fetches the snapshot again.
    case resync

    var name: String {
        switch self {
        case .request: return "request"
        case .stream: return "stream"
        case .transfer: return "transfer"
        case .outbox: return "outbox"
        case .clear: return "clear"
        case .resync: return "resync"
        }
    }

    /// `event: <name>`, `data: <one-line JSON>` and the blank line that ends a message.
    func message() -> Data {
        let json: Data
        switch self {
        case .request(let record): json = Self.encoded(record)
        case .stream(let record): json = Self.encoded(record)
        case .transfer(let record): json = Self.encoded(record)
        case .outbox(let record): json = Self.encoded(record)
        case .clear, .resync: json = Data("{}".utf8)
        }
        return Data("event: \(name)\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    /// Compact JSON, so one line: JSON strings hold line breaks escaped.
    static func encoded(_ value: some Encodable) -> Data {
        // Every value here encodes: strings, numbers and arrays of them.
        (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
    }
}
