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

    static func openForReading(_ url: URL) -> Result<POSIXFile, POSIXFailure> {
        open(url, flags: O_RDONLY)
    }

    /// Opens `url` to look at it, without blocking: opening a named pipe for reading would wait for a writer.
    static func openForInspection(_ url: URL) -> Result<POSIXFile, POSIXFailure> {
        open(url, flags: O_RDONLY | O_NONBLOCK)
    }

    /// Opens or creates `url` for writing, keeping its first `length` bytes, positioned at their end.
    static func openForWriting(_ url: URL, keeping length: Int64) -> Result<POSIXFile, POSIXFailure> {
        open(url, flags: O_WRONLY | O_CREAT).flatMap { file in
            guard ftruncate(file.descriptor, off_t(length)) == 0,
                lseek(file.descriptor, off_t(length), SEEK_SET) >= 0
            else { return .failure(POSIXFailure()) }
            return .success(file)
        }
    }

    private static func open(_ url: URL, flags: Int32) -> Result<POSIXFile, POSIXFailure> {
        let descriptor = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return System.open(path, flags | O_CLOEXEC, 0o644)
        }
        return descriptor < 0 ? .failure(POSIXFailure()) : .success(POSIXFile(descriptor: descriptor))
    }

    /// The number read into `buffer`, 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, POSIXFailure> {
        while true {
            let read = System.read(descriptor, buffer, count)
            if read >= 0 { return .success(read) }
            if errno != EINTR { return .failure(POSIXFailure()) }
        }
    }

    func write(_ data: Data) -> Result<Void, POSIXFailure> {
        data.withUnsafeBytes { bytes -> Result<Void, POSIXFailure> in
            guard var next = bytes.baseAddress else { return .success(()) }
            var left = bytes.count
            while left > 0 {
                let written = System.write(descriptor, next, left)
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
                return System.rename(from, to) == 0
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

    /// Closing twice does nothing.
    func close() {
        guard descriptor >= 0 else { return }
        _ = System.close(descriptor)
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

/// The C library's calls under names that the methods above don't shadow.
private enum System {
    #if canImport(Glibc)
        static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
            Glibc.open(path, flags, mode)
        }
        static func read(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            Glibc.read(file, buffer, count)
        }
        static func write(_ file: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
            Glibc.write(file, buffer, count)
        }
        static func close(_ file: Int32) -> Int32 { Glibc.close(file) }
        static func rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
            Glibc.rename(from, to)
        }
    #elseif canImport(Musl)
        static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
            Musl.open(path, flags, mode)
        }
        static func read(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            Musl.read(file, buffer, count)
        }
        static func write(_ file: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
            Musl.write(file, buffer, count)
        }
        static func close(_ file: Int32) -> Int32 { Musl.close(file) }
        static func rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
            Musl.rename(from, to)
        }
    #else
        static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
            Darwin.open(path, flags, mode)
        }
        static func read(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            Darwin.read(file, buffer, count)
        }
        static func write(_ file: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
            Darwin.write(file, buffer, count)
        }
        static func close(_ file: Int32) -> Int32 { Darwin.close(file) }
        static func rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
            Darwin.rename(from, to)
        }
    #endif
}
