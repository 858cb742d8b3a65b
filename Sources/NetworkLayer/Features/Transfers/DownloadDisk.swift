import Foundation

/// Where a download's partial file is written: the file system, or, behind this seam, a test's disk that
/// is slow or full. The writer itself knows nothing of tests.
protocol DownloadDisk: Sendable {
    /// Opens (creating it if needed) `url` for writing, keeping its first `length` bytes and positioned
    /// at their end.
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure>
}

/// A file open for writing, used by one queue at a time (a ``DiskWriter``'s).
protocol DiskFile: AnyObject {
    /// Writes all of `data`.
    func write(_ data: Data) -> Result<Void, POSIXFailure>
    /// Closes the file; closing twice does nothing.
    func close()
}

extension POSIXFile: DiskFile {}

/// The file system, through ``POSIXFile``.
struct FileSystemDisk: DownloadDisk {
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure> {
        POSIXFile.openForWriting(url, keeping: length).map { $0 }
    }
}
