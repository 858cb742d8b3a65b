// expect: 'upload(urlString:method:data:contentType:headers:progressHandler:successHandler:errorHandler:)' is
// expect: unavailable: send(NetworkRequest<EmptyResponse>.upload(urlString:method:data:contentType:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, jpeg: Data, screen: Screen) {
    network.upload(
        urlString: "avatar", method: .put, data: jpeg, contentType: "image/jpeg",
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
