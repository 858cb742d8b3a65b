import Foundation
import NetworkLayer

// The Swift sample of the "Resumable uploads" section of the NetworkLayer catalog's transfers article
// (Sources/NetworkLayer/NetworkLayer.docc/DownloadsAndUploads.md), verbatim, so it keeps compiling.

@MainActor
protocol UploadScreen: AnyObject {
    func showProgress(_ fraction: Double)
}

enum ResumableUploadSnippets {
    @MainActor
    static func upload(video: URL, network: NetworkLayer, screen: UploadScreen) async throws(NetworkError)
        -> URL
    {
        let resumable = ResumableUpload.tus(fallback: .plainUpload)
        var upload = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: resumable)
        upload.retryPolicy = RetryPolicy(maximumAttempts: 5)
        upload.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        let uploaded = try await network.send(upload).value
        return uploaded
    }
}
