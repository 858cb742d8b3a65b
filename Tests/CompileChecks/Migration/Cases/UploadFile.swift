// expect: 'upload(urlString:method:fileURL:contentType:headers:progressHandler:successHandler:errorHandler:)'
// expect: is unavailable: send(NetworkRequest<Reply>.upload(urlString:method:fileURL:contentType:headers:))
import Foundation
import NetworkLayer

func before(network: NetworkLayer, reportURL: URL, screen: Screen) {
    network.upload(
        urlString: "documents", fileURL: reportURL, contentType: "application/pdf",
        successHandler: { (document: StoredDocument) in screen.show(document) },
        errorHandler: { error in screen.show(error.message) })
}
