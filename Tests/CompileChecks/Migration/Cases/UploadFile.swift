// expect: 'upload(urlString:method:fileURL:contentType:headers:progressHandler:successHandler:errorHandler:)' is unavailable: send a NetworkRequest<Reply>.upload(urlString:method:fileURL:contentType:headers:) with send(_:successHandler:errorHandler:)
import Foundation
import NetworkLayer

func before(network: NetworkLayer, reportURL: URL, screen: Screen) {
    network.upload(
        urlString: "documents", fileURL: reportURL, contentType: "application/pdf",
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
