// expect: 'post(urlString:body:headers:successHandler:errorHandler:)' is unavailable:
// expect: send(NetworkRequest(method: .post, urlString:, body: .json(body))) has the whole response
import Foundation
import NetworkLayer

func before(network: NetworkLayer, todo: Todo, screen: Screen) {
    network.post(
        urlString: "todos", body: todo,
        successHandler: { (response: NetworkResponse<Todo>) in
            screen.show(response.value, at: response.headers["Location"])
        },
        errorHandler: { error in screen.show(error.message) })
}
