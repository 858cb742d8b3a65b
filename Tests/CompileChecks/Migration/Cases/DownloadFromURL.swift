// expect: 'download(urlString:to:options:headers:progressHandler:successHandler:errorHandler:)' is
// expect: unavailable: send(.download(urlString:to:options:headers:)); a progressHandler is the request's own
import Foundation
import NetworkLayer

func before(network: NetworkLayer, destination: URL, screen: Screen) {
    network.download(
        urlString: "files/report.pdf", to: destination,
        progressHandler: { progress in screen.showProgress(progress.fractionCompleted ?? 0) },
        successHandler: { file in screen.open(file) },
        errorHandler: { error in screen.show(error.message) })
}
