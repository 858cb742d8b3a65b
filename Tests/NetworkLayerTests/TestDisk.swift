import Foundation

@testable import NetworkLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk for a layer's downloads (``SessionTransport/disk``) that is slow or full: every piece first
/// waits ``delay`` seconds, and the next ``failedWrites`` pieces fail to write with `ENOSPC`.
final class TestDisk: DownloadDisk {
    /// How long each piece takes to write.
    let delay = Locked<TimeInterval>(0)
    /// How many of the next pieces fail.
    let failedWrites = Locked(0)

    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure> {
        FileSystemDisk().openForWriting(url, keeping: length).map { File(file: $0, disk: self) }
    }

    private final class File: DiskFile {
        private let file: any DiskFile
        private let disk: TestDisk

        init(file: any DiskFile, disk: TestDisk) {
            self.file = file
            self.disk = disk
        }

        func write(_ data: Data) -> Result<Void, POSIXFailure> {
            // A slow disk is what is simulated here; nothing waits on this for synchronisation.
            let delay = disk.delay.withLock { $0 }
            // real wait: the slow disk this double simulates (the behaviour under test, not synchronisation)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            let fails = disk.failedWrites.withLock { count in
                defer { count = max(0, count - 1) }
                return count > 0
            }
            return fails ? .failure(POSIXFailure(code: ENOSPC)) : file.write(data)
        }

        func close() {
            file.close()
        }
    }
}
