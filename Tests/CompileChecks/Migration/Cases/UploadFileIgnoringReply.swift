// expect: 'upload(urlString:method:fileURL:contentType:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<EmptyResponse>.upload(urlString:method:fileURL:contentType:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, photoURL: URL, screen: Screen) {
    network.upload(
        urlString: "avatars", fileURL: photoURL,
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
