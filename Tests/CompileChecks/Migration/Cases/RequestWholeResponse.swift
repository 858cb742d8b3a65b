// expect: 'request(_:successHandler:errorHandler:)' is unavailable: send(NetworkRequest(endpoint)) has the
// expect: whole response
import Foundation
import NetworkLayer

func before(network: NetworkLayer, screen: Screen) {
    network.request(
        TodoList(),
        successHandler: { (response: NetworkResponse<[Todo]>) in
            screen.show(response.value, total: response.headers["X-Total-Count"])
        },
        errorHandler: { error in screen.show(error.message) })
}
