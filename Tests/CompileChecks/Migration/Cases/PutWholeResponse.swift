// expect: 'put(urlString:body:headers:successHandler:errorHandler:)' is unavailable:
// expect: send(NetworkRequest(method: .put, urlString:, body: .json(body))) has the whole response
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo, screen: Screen) {
    network.put(
        urlString: "todos/1", body: todo,
        successHandler: { (response: NetworkResponse<Todo>) in
            screen.show(response.value, at: response.headers["Location"])
        },
        errorHandler: { error in screen.show(error.message) })
}
