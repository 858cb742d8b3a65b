// expect: 'upload(urlString:method:multipart:headers:progressHandler:successHandler:errorHandler:)' is
// expect: unavailable: send(NetworkRequest<Reply>.upload(urlString:method:multipart:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
    network.upload(
        urlString: "documents", multipart: form,
        progressHandler: { progress in screen.showProgress(progress.fractionCompleted ?? 0) },
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
