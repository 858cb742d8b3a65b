import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A slowloris peer's pace: sends `bytes`, then `a`s, one byte per tick of a timer, on a socket the
/// caller keeps open, until stopped or a send fails.
///
/// Invariant for `@unchecked Sendable`: `sent` is touched only on `queue`, where the timer fires.
final class Trickle: @unchecked Sendable {
    private let queue = DispatchQueue(label: "Trickle")
    private let timer: DispatchSourceTimer
    private let fd: Int32
    private let bytes: [UInt8]
    private var sent = 0

    /// Starts sending on `fd`, a byte every `interval` seconds.
    init(fd: Int32, bytes: [UInt8], every interval: TimeInterval) {
        self.fd = fd
        self.bytes = bytes
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: interval)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    /// Stops sending; returns once no tick runs any more, so the socket may then be closed.
    func stop() {
        timer.cancel()
        queue.sync {}
    }

    private func tick() {
        var byte = sent < bytes.count ? bytes[sent] : UInt8(ascii: "a")
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        guard send(fd, &byte, 1, flags) == 1 else { return timer.cancel() }
        sent += 1
    }
}
