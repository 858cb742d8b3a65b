/// The back-pressure rule of a transfer whose consumer (a stream's handler, a download's disk) may fall
/// behind: past `limit` bytes handed over and not consumed the transfer pauses reading
/// (``TransferFlow/pauseReading()``), and it resumes once at most half that is left or the consumer has
/// ended, once per pause. Kept under its owner's lock: each method returns what to do, done outside it.
struct ConsumerBacklog {
    typealias Resume = @Sendable () -> Void
    private let limit: Int
    private var pending = 0
    /// Kept while the transfer is paused: what lets it read on (dropped with a connection that ended).
    var resume: Resume?
    /// Set once the consumer takes nothing more (closed, or its disk failed): nothing pauses again.
    private(set) var isEnded = false

    init(limit: Int) { self.limit = limit }

    /// Counts `bytes` handed to the consumer: `true` when the transfer pauses now, `resume` kept to lift it.
    mutating func add(_ bytes: Int, resume: @escaping Resume) -> Bool {
        pending += bytes
        guard !isEnded, pending > limit, self.resume == nil else { return false }
        self.resume = resume
        return true
    }

    /// Counts `bytes` consumed: the resume to run, if the transfer is paused and the consumer caught up.
    mutating func remove(_ bytes: Int) -> Resume? {
        pending -= bytes
        return pending <= limit / 2 ? resume.take() : nil
    }

    /// The consumer takes nothing more: the resume to run now, if the transfer is paused.
    mutating func end() -> Resume? {
        isEnded = true
        return resume.take()
    }
}
