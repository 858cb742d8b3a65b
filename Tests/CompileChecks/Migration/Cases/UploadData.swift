// expect: 'upload(urlString:method:data:contentType:headers:progressHandler:successHandler:errorHandler:)' is
// expect: unavailable: send(NetworkRequest<Reply>.upload(urlString:method:data:contentType:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, pdf: Data, screen: Screen) {
    network.upload(
        urlString: "documents", data: pdf, contentType: "application/pdf",
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
