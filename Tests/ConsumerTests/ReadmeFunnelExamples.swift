import Foundation
import NetworkLayer

// The README's samples for `NetworkRequest`, `send` and `NetworkResponse`, verbatim (`ReadmeSyncTests`).

struct Item: Codable, Equatable {
    let id: Int
}

enum ReadmeFunnelExample {
    static func responses(network: NetworkLayer) {
        // The whole response: status, headers (any case), the final URL and the raw body
        network.send(
            NetworkRequest<[Item]>(urlString: "items", query: ["page": "2"]),
            successHandler: { response in
                let total = response.headers["X-Total-Count"].flatMap(Int.init)
                print(response.statusCode, response.value.count, total ?? 0, response.url as Any)
            },
            errorHandler: { error in print(error.message) })
    }

    static func anyRequest(network: NetworkLayer, csv: Data) {
        // Repeated query items, a timeout of its own, accepted content types
        var request = NetworkRequest<[Item]>(urlString: "items", acceptableContentTypes: ["application/json"])
        request.queryItems = [URLQueryItem(name: "ids", value: "1"), URLQueryItem(name: "ids", value: "2")]
        request.timeout = 5
        network.send(
            request,
            successHandler: { response in print(response.value) },
            errorHandler: { error in print(error.message) })

        // "No profile yet" is a value, not an error; a signature for this request alone
        var profile = NetworkRequest<Data>(urlString: "me/profile")
        profile.acceptableStatusCodes = Set(200..<300).union([404])
        profile.interceptors = [UploadSignature()]
        network.send(profile) { result in
            if case .success(let response) = result { print(response.statusCode == 404 ? "none" : "found") }
        }

        // HEAD, OPTIONS, or any method with a raw body; Data as the reply gives the bytes
        network.send(NetworkRequest<Data>(method: .head, urlString: "reports/latest.pdf")) { result in
            if case .success(let response) = result { print(response.headers["Content-Length"] ?? "?") }
        }
        network.post(
            urlString: "imports", body: csv, headers: ["Content-Type": "text/csv"],
            successHandler: { print("imported") },
            errorHandler: { error in print(error.message) })
    }
}
