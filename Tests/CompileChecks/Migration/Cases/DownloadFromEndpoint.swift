// expect: 'download(_:to:options:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest.download(_:to:options:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, destination: URL, screen: Screen) {
    network.download(
        ReportFile(), to: destination, options: .replaceExisting,
        successHandler: { file in screen.open(file) },
        errorHandler: { error in screen.show(error.message) })
}
