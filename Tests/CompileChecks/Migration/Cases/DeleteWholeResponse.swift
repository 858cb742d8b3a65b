// expect: 'delete(urlString:headers:successHandler:errorHandler:)' is unavailable:
// expect: send(NetworkRequest(method: .delete, urlString:)) has the whole response
import Foundation
import NetworkLayer

func before(network: NetworkLayer, screen: Screen) {
    network.delete(
        urlString: "todos/1",
        successHandler: { (response: NetworkResponse<EmptyResponse>) in
            screen.showStatus(response.statusCode)
        },
        errorHandler: { error in screen.show(error.message) })
}
