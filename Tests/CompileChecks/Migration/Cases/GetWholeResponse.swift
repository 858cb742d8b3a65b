// expect: 'get(urlString:query:headers:successHandler:errorHandler:)' is unavailable:
// expect: send(NetworkRequest(urlString:)) has the whole response
import Foundation
import NetworkLayer

func before(network: NetworkLayer, screen: Screen) {
    network.get(
        urlString: "todos", query: ["page": "2"],
        successHandler: { (response: NetworkResponse<[Todo]>) in
            screen.show(response.value, total: response.headers["X-Total-Count"])
        },
        errorHandler: { error in screen.show(error.message) })
}
