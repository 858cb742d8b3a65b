// expect: 'download(_:to:options:progressHandler:successHandler:errorHandler:)' is unavailable:
// expect: send(.download(_:to:options:)); a progressHandler is the request's own
import Foundation
import NetworkLayer

func before(network: NetworkLayer, destination: URL, screen: Screen) {
    network.download(
        ReportFile(), to: destination, options: .replaceExisting,
        successHandler: { file in screen.open(file) },
        errorHandler: { error in screen.show(error.message) })
}
