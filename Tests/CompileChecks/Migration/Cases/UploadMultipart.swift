// expect: 'upload(urlString:method:multipart:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<Reply>.upload(urlString:method:multipart:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, form: MultipartFormData, screen: Screen) {
    network.upload(
        urlString: "documents", multipart: form,
        progressHandler: { progress in screen.showProgress(progress.fractionCompleted ?? 0) },
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
