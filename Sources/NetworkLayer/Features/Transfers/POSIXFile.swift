import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let descriptor = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return systemOpen(path, flags | O_CLOEXEC, 0o644)
        }
        return descriptor < 0 ? .failure(POSIXFailure()) : .success(POSIXFile(descriptor: descriptor))
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, POSIXFailure> {
        while true {
            let read = systemRead(descriptor, buffer, count)
            if read >= 0 { return .success(read) }
            if errno != EINTR { return .failure(POSIXFailure()) }
        }
    }

    func write(_ data: Data) -> Result<Void, POSIXFailure> {
        data.withUnsafeBytes { bytes -> Result<Void, POSIXFailure> in
            guard var next = bytes.baseAddress else { return .success(()) }
            var left = bytes.count
            while left > 0 {
                let written = systemWrite(descriptor, next, left)
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

    /// Renames `source` to `destination`, atomically replacing a file there.
    static func rename(_ source: URL, to destination: URL) -> Result<Void, POSIXFailure> {
        let done = source.withUnsafeFileSystemRepresentation { from in
            destination.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return false }
                return systemRename(from, to) == 0
            }
        }
        return done ? .success(()) : .failure(POSIXFailure())
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

    /// Moves the position to `offset` from the start, closing the file on failure.
    func seek(to offset: Int64) -> Result<POSIXFile, POSIXFailure> {
        guard offset == 0 || lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            let failure = POSIXFailure()
            close()
            return .failure(failure)
        }
        return .success(self)
    }

    /// Closing twice does nothing.
    func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }
}

struct POSIXFailure: Error {
    let code: Int32
    let reason: String

    init(code: Int32 = errno) {
        self.code = code
        reason = String(cString: strerror(code))
    }
}

// The C library's calls under names that POSIXFile's own methods don't shadow (at file scope the
// unqualified names are the C library's on every platform).
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func systemRead(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(file, buffer, count)
}
private func systemWrite(_ file: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(file, buffer, count)
}
private func systemClose(_ file: Int32) -> Int32 { close(file) }
private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
    rename(from, to)
}
