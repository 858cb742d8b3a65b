/// The pauses a stream's consumer asked of its transfer and hasn't lifted yet (delegate queue).
///
/// Counted, not flagged: a pause is asked for on the delegate queue, but its resume travels there from
/// the consumer's thread, so the consumer may fall behind again (asking for the next pause) before the
/// last resume arrives. With a flag, that late resume would lift the new pause, and the connection would
/// read on at full speed while the consumer is behind.
struct ReadingPauses {
    private(set) var count = 0

    /// Whether reading is paused.
    var isPaused: Bool { count > 0 }

    /// Asks for a pause; `true` when reading must stop now.
    mutating func pause() -> Bool {
        count += 1
        return count == 1
    }

    /// Lifts one pause; `true` when reading must go on now. A resume with no pause left (its transfer
    /// ended meanwhile) does nothing.
    mutating func resume() -> Bool {
        guard count > 0 else { return false }
        count -= 1
        return count == 0
    }

    /// Lifts every pause (the transfer is ending); `true` when reading was paused.
    mutating func removeAll() -> Bool {
        defer { count = 0 }
        return count > 0
    }
}
