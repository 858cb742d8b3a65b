// expect: 'upload(urlString:method:multipart:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<EmptyResponse>.upload(urlString:method:multipart:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
    network.upload(
        urlString: "documents", multipart: form,
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
