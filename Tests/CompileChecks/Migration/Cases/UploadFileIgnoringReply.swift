// expect: 'upload(urlString:method:fileURL:contentType:headers:progressHandler:successHandler:errorHandler:)'
// expect: is unavailable:
// expect: send(NetworkRequest<EmptyResponse>.upload(urlString:method:fileURL:contentType:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, photoURL: URL, screen: Screen) {
    network.upload(
        urlString: "avatars", fileURL: photoURL,
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
