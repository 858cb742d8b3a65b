// expect: switch must be exhaustive
// expect-note: add missing case: '.rateLimited(until:
// expect-note: add missing case: '.sourceFileChanged(
// expect-note: add missing case: '.resumableUploadUnsupported(protocolName:
import Foundation
import NetworkLayer

func before(error: NetworkError, screen: Screen) {
    switch error {
    case .cancelled:
        break
    case .timedOut, .transport, .tooManyReconnects:
        screen.show("Check your connection.")
    case .invalidURL, .encodingFailed, .invalidHeader, .invalidRequest, .unacceptableStatusCode,
        .unacceptableContentType, .emptyResponse, .decodingFailed, .invalidResponse, .custom:
        screen.show(error.message)
    }
}
