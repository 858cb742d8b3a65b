import Foundation

/// Where a download's partial file is written: the file system, or behind this seam a test's slow or
/// full disk.
protocol DownloadDisk: Sendable {
    /// Opens or creates `url` for writing, keeping its first `length` bytes, positioned at their end.
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure>
}

/// A file open for writing, used by one queue at a time (a ``DiskWriter``'s).
protocol DiskFile: AnyObject {
    func write(_ data: Data) -> Result<Void, POSIXFailure>
    /// Closing twice does nothing.
    func close()
}

extension POSIXFile: DiskFile {}

struct FileSystemDisk: DownloadDisk {
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure> {
        POSIXFile.openForWriting(url, keeping: length).map { $0 }
    }
}
