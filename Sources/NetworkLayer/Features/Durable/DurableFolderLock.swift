import Foundation

/// An exclusive claim on a name in a folder, held across processes (an app and its extension) and within
/// one: `flock` on a lock file, which the system releases when the holder exits, even by `SIGKILL`, so a
/// crash never leaves the name claimed. Why `flock`, not `fcntl` locks: those belong to the process, so a
/// second claim from the same process would succeed.
package final class DurableFolderLock: Sendable {
    private let descriptor: Int32
    /// Claimed by whichever closes the descriptor first: ``release()`` or `deinit`.
    private let closed = Once()

    /// Claims `name` in `folder`, or fails at once when another holder has it.
    ///
    /// - Parameters:
    ///   - name: The lock file's name.
    ///   - folder: Where the lock file is (created if missing, readable by the user only).
    ///   - restrictingExisting: Whether an existing `folder` is made readable by the user only too: `true`
    ///     for a folder that is the library's own (an outbox's), `false` for one the app named.
    /// - Returns: The claim, held until it is deinitialized; `nil` when another holder has it.
    /// - Throws: ``DurableWriteError`` when the folder can't be made or the lock file opened.
    package static func claim(_ name: String, in folder: URL, restrictingExisting: Bool = true)
        throws(DurableWriteError) -> DurableFolderLock?
    {
        try DurableFolder.create(folder, restrictingExisting: restrictingExisting)
        let file = folder.appendingPathComponent(name)
        let descriptor = POSIX.openFile(file.path, O_RDWR | O_CREAT)
        guard descriptor >= 0 else { throw DurableWriteError(errno: errno, file: file) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            POSIX.closeFile(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw DurableWriteError(errno: code, file: file)
        }
        return DurableFolderLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Releases the claim now (an owner's `close()`), so another holder may claim the name; calling it
    /// again, or the deinit after it, does nothing.
    package func release() {
        // Closing the last descriptor of the open file releases the lock.
        if closed.claim() { POSIX.closeFile(descriptor) }
    }

    deinit {
        release()
    }
}
