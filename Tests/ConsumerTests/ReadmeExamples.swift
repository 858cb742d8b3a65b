import Foundation
import NetworkLayer

// The README's code samples, verbatim, so they keep compiling. `ReadmeSyncTests` fails when a sample in
// the README no longer appears here.

enum ReadmeRequestsExample {
    static func requests(token: String, newEmployee: Employee) {
        let network = NetworkLayer(
            baseURL: URL(string: "https://api.example.com/v1"),
            defaultHeaders: ["Authorization": "Bearer \(token)"])

        // GET with query parameters, decoded as [Employee]
        network.get(
            urlString: "employees", query: ["team": "R&D", "page": "2"],
            successHandler: { (employees: [Employee]) in print(employees.count) },
            errorHandler: { error in print(error.message) })

        // POST a JSON body, decode the reply
        network.post(
            urlString: "employees", body: newEmployee,
            successHandler: { (created: Employee) in print(created.name) },
            errorHandler: { error in print(error.message) })

        // POST, PUT, PATCH or DELETE where any 2xx reply is success, with or without a body
        network.delete(
            urlString: "employees/42",
            successHandler: { print("deleted") },
            errorHandler: { error in print(error.message) })
    }
}

struct ValidationProblem: Decodable {
    let detail: String
}

func handle(_ error: NetworkError) {
    if error.statusCode == 422, let body = error.responseBody,
        let problem = try? JSONDecoder().decode(ValidationProblem.self, from: body)
    {
        print(problem.detail)
    } else {
        print(error.message)
    }
}
