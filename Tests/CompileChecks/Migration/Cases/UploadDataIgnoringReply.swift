// expect: 'upload(urlString:method:data:contentType:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<EmptyResponse>.upload(urlString:method:data:contentType:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, jpeg: Data, screen: Screen) {
    network.upload(
        urlString: "avatar", method: .put, data: jpeg, contentType: "image/jpeg",
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
