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

    /// Replace a file at the destination once the download is complete; without it such a file fails
    /// the download before anything is sent.
    public static let replaceExisting = DownloadOptions(rawValue: 1 << 0)

    /// Start from zero, discarding what an interrupted download to the same destination left.
    public static let restart = DownloadOptions(rawValue: 1 << 1)

    /// Create the destination's missing folders before anything is sent (left in place if the download
    /// fails); without it a missing folder fails with `URLError(.cannotOpenFile)`.
    public static let createIntermediateFolders = DownloadOptions(rawValue: 1 << 2)
}
