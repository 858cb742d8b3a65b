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
