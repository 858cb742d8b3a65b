/// Choices about where a download lands and what it reuses.
///
/// ```swift
/// network.send(
///     .download(urlString: "files/report.pdf", to: destination, options: [.replaceExisting]),
///     successHandler: { response in open(response.value) }, errorHandler: { error in show(error.message) })
/// ```
public struct DownloadOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: Int

    /// Creates options from their raw bits.
    ///
    /// - Parameter rawValue: The option bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Replace a file already at the destination, once the download is complete. Without it, a file at
    /// the destination fails the download before anything is sent.
    public static let replaceExisting = DownloadOptions(rawValue: 1 << 0)

    /// Start from zero: discard what an earlier, interrupted download to the same destination left
    /// instead of resuming it.
    public static let restart = DownloadOptions(rawValue: 1 << 1)

    /// Create the destination's folder, and any missing folder above it, before anything is sent.
    /// Without it, a missing folder fails the download with `URLError(.cannotOpenFile)` before anything
    /// is sent. Folders made for a download that then fails are left in place.
    public static let createIntermediateFolders = DownloadOptions(rawValue: 1 << 2)
}
