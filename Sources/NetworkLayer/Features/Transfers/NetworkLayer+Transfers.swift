import Foundation

extension NetworkLayer {
    /// How many bytes an interrupted download to `destination` has left to resume from; `nil` when there
    /// is none that can be resumed.
    ///
    /// - Parameter destination: Where the file goes once complete; its partial download sits beside it until then.
    public static func partialDownloadSize(for destination: URL) -> Int64? {
        PartialDownload(destination: destination.standardizedFileURL).resumePoint()?.offset
    }

    /// Deletes what an interrupted download to `destination` left beside it (the `.partial` file and its
    /// `.partial.json`), so the next download starts from zero. Does nothing when there is nothing.
    ///
    /// - Parameter destination: Where the file goes once complete; its partial download sits beside it until then.
    public static func removePartialDownload(for destination: URL) {
        PartialDownload(destination: destination.standardizedFileURL).remove()
    }
}
