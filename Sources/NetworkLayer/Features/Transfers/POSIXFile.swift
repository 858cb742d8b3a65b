import Foundation

/// An open file descriptor with the few calls transfers need, reporting `errno` as text. One queue at a time.
final class POSIXFile {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    static func openForWriting(_ url: URL, keeping length: Int64) -> Result<POSIXFile, POSIXFailure> {
        open(url, flags: O_WRONLY | O_CREAT).flatMap { file in
            guard ftruncate(file.descriptor, off_t(length)) == 0,
                lseek(file.descriptor, off_t(length), SEEK_SET) >= 0
            else { return .failure(POSIXFailure()) }
            return .success(file)
        }
    }

    /// Opens `url` (close-on-exec); an upload's file is inspected with `O_NONBLOCK`, since opening a named
    /// pipe for reading would wait for a writer.
    static func open(_ url: URL, flags: Int32) -> Result<POSIXFile, POSIXFailure> {
        let descriptor = POSIX.openFile(url.path, flags, 0o644)
        return descriptor < 0 ? .failure(POSIXFailure()) : .success(POSIXFile(descriptor: descriptor))
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, POSIXFailure> {
        while true {
            let read = POSIX.readFile(descriptor, buffer, count)
            if read >= 0 { return .success(read) }
            if errno != EINTR { return .failure(POSIXFailure()) }
        }
    }

    func write(_ data: Data) -> Result<Void, POSIXFailure> {
        data.withUnsafeBytes { bytes -> Result<Void, POSIXFailure> in
            guard var next = bytes.baseAddress else { return .success(()) }
            var left = bytes.count
            while left > 0 {
                let written = POSIX.writeFile(descriptor, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .failure(POSIXFailure())
                }
                left -= written
                next += written
            }
            return .success(())
        }
    }

    /// An upload file's kind and size, through the open descriptor (so a symbolic link's target).
    enum Kind {
        case regular(size: Int64)
        case folder
        /// A pipe, a device, a socket: no length to send, and reading may wait for ever.
        case other
    }

    func kind() -> Result<Kind, POSIXFailure> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(POSIXFailure()) }
        switch status.st_mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): return .success(.regular(size: Int64(status.st_size)))
        case mode_t(S_IFDIR): return .success(.folder)
        default: return .success(.other)
        }
    }

    /// Moves the position to `offset` from the start; on failure the file is dropped, which closes it.
    func seek(to offset: Int64) -> Result<POSIXFile, POSIXFailure> {
        guard offset == 0 || lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            return .failure(POSIXFailure())
        }
        return .success(self)
    }

    /// Closing twice does nothing.
    func close() {
        guard descriptor >= 0 else { return }
        POSIX.closeFile(descriptor)
        descriptor = -1
    }
}
