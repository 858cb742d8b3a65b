import Foundation
import NetworkLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download's progress in the terminal: one bar redrawn in place when the output is a terminal, plain
/// lines (at most one per 10%) when it goes to a file or a pipe.
final class ProgressBar {
    private let isTerminal = isatty(STDOUT_FILENO) != 0
    private let width = 30
    private var lastLoggedStep = -1

    func show(_ progress: TransferProgress) {
        let text = Self.describe(progress)
        if isTerminal {
            let filled = Int((progress.fractionCompleted ?? 0) * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            // Written at once, unbuffered: a carriage return to redraw the line, and erase what is left.
            FileHandle.standardOutput.write(Data("\r  [\(bar)] \(text)\u{1B}[K".utf8))
        } else {
            let step = Int((progress.fractionCompleted ?? 0) * 10)
            guard step > lastLoggedStep else { return }
            lastLoggedStep = step
            print("  \(text)")
        }
    }

    /// Ends the bar's line, so what follows starts on a line of its own.
    func finish() {
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }

    private static func describe(_ progress: TransferProgress) -> String {
        let done = megabytes(progress.completedBytes)
        guard let expected = progress.expectedBytes, let fraction = progress.fractionCompleted else {
            return "\(done) MB"
        }
        return String(format: "%3.0f%%  ", fraction * 100) + "\(done) of \(megabytes(expected)) MB"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }
}

/// Downloads the employee handbook with a progress bar, then removes it again.
struct HandbookDownload {
    let networkLayer: NetworkLayer

    func run(then next: @escaping () -> Void) {
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("handbook-\(UUID().uuidString).pdf")
        let bar = ProgressBar()
        var request = NetworkRequest.download(urlString: "files/handbook.pdf", to: destination)
        request.progressHandler = bar.show
        networkLayer.send(
            request,
            successHandler: { response in
                let file = response.value
                bar.finish()
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                print("  Saved \(size) bytes to \(file.lastPathComponent).")
                try? FileManager.default.removeItem(at: file)
                next()
            },
            errorHandler: { error in
                bar.finish()
                print("  Shown to the user: \"\(error.message)\"")
                NetworkLayer.removePartialDownload(for: destination)
                next()
            })
    }
}
