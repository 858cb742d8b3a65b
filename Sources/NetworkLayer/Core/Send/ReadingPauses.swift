/// The pauses a stream's consumer asked of its transfer and hasn't lifted (delegate queue). Why counted:
/// a resume travels from the consumer's thread, so a late resume would lift a newer pause and read on
/// at full speed while the consumer is behind.
struct ReadingPauses {
    private(set) var count = 0

    var isPaused: Bool { count > 0 }

    /// Asks for a pause; `true` when reading must stop now.
    mutating func pause() -> Bool {
        count += 1
        return count == 1
    }

    /// `true` when reading must go on now; a resume with no pause left (its transfer ended) does nothing.
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
