import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's file calls, in one place: the platform's module is imported here only, and each call
/// has a name that a type's own method (`open`, `read`, `rename`, `close`) can't shadow.
enum POSIX {
    /// `open(2)`, close-on-exec; `-1` with `errno` set on failure.
    static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0o600) -> Int32 {
        open(path, flags | O_CLOEXEC, mode)
    }

    static func readFile(_ file: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        read(file, buffer, count)
    }

    static func writeFile(_ file: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        write(file, buffer, count)
    }

    static func closeFile(_ file: Int32) { _ = close(file) }

    /// Renames `source` to `destination`, atomically replacing a file there; `false` with `errno` set.
    static func renameFile(_ source: String, _ destination: String) -> Bool {
        rename(source, destination) == 0
    }

    /// Waits until the file's bytes are on the device. `false` with `errno` set. The platform fact: on
    /// Apple systems `fsync` only reaches the drive's cache and `F_FULLFSYNC` flushes the device; Linux has
    /// no `F_FULLFSYNC` (there `fsync` reaches the device).
    static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin) || NETWORKLAYER_APPLE_BRANCHES
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    /// What ``readRegularFile(_:limit:)`` found.
    enum BoundedRead {
        /// The file's bytes, at most the limit.
        case contents(Data)
        /// No file by that name.
        case missing
        /// A symbolic link, a FIFO, a device or a folder: nothing was read.
        case notARegularFile
        /// A regular file larger than the limit: at most one byte past the limit was read.
        case tooLarge
        /// The file couldn't be opened or read (permissions, an I/O error).
        case failed(POSIXFailure)
    }

    /// Reads the regular file at `path` if it holds at most `limit` bytes. Why one descriptor: a check by
    /// path then a read by path reads whatever is there by then, and follows a link the check didn't. So
    /// the file is opened once, without following a link (`O_NOFOLLOW`) or waiting for a FIFO's writer
    /// (`O_NONBLOCK`); its type and size come from that descriptor, and at most `limit + 1` bytes are read
    /// from it, so a file growing meanwhile costs no more.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The most bytes the caller accepts.
    /// - Returns: The bytes, or why there are none.
    static func readRegularFile(_ path: String, limit: Int) -> BoundedRead {
        let descriptor = openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            return code == ELOOP ? .notARegularFile : .failed(POSIXFailure(code: code))
        }
        defer { closeFile(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failed(POSIXFailure()) }
        guard Int(status.st_mode) & Int(S_IFMT) == Int(S_IFREG) else { return .notARegularFile }
        guard status.st_size <= limit else { return .tooLarge }
        return readToEnd(descriptor, expecting: Int(status.st_size), limit: limit)
    }

    /// Reads `descriptor` to its end, or until more than `limit` bytes came: room for what `fstat` said,
    /// grown only if the file grew.
    private static func readToEnd(_ descriptor: Int32, expecting size: Int, limit: Int) -> BoundedRead {
        let ceiling = limit == .max ? limit : limit + 1
        var bytes = Data(count: min(size, ceiling - 1) + 1)
        var total = 0
        while total < ceiling {
            if total == bytes.count {
                let doubled = bytes.count.multipliedReportingOverflow(by: 2)
                bytes.count = doubled.overflow ? ceiling : min(ceiling, doubled.partialValue)
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                readFile(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                return .failed(POSIXFailure())
            }
            total += count
        }
        guard total <= limit else { return .tooLarge }
        bytes.count = total
        return .contents(bytes)
    }

    /// Makes the folder `path` with `mode`; `false` with `errno` set (`EEXIST` when something is there).
    static func makeFolder(_ path: String, _ mode: mode_t) -> Bool {
        mkdir(path, mode) == 0
    }

    /// Makes the folder `path` readable by the user only, unless `path` is a symbolic link (the folder it
    /// names is someone else's to set); `false` with `errno` set.
    static func restrictFolder(_ path: String) -> Bool {
        let descriptor = openFile(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { closeFile(descriptor) }
        return fchmod(descriptor, 0o700) == 0
    }
}

/// A failed system call: `errno` and its text.
struct POSIXFailure: Error {
    let code: Int32
    let reason: String

    init(code: Int32 = errno) {
        self.code = code
        reason = String(cString: strerror(code))
    }
}
