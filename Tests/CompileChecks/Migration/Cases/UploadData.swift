// expect: 'upload(urlString:method:data:contentType:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<Reply>.upload(urlString:method:data:contentType:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, pdf: Data, screen: Screen) {
    network.upload(
        urlString: "documents", data: pdf, contentType: "application/pdf",
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
