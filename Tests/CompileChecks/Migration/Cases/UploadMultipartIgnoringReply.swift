// expect: 'upload(urlString:method:multipart:headers:progressHandler:successHandler:errorHandler:)' is
// expect: unavailable: send(NetworkRequest<EmptyResponse>.upload(urlString:method:multipart:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
    network.upload(
        urlString: "documents", multipart: form,
        successHandler: { screen.showSaved() },
        errorHandler: { error in screen.show(error.message) })
}
