import Foundation
import NetworkLayer

// The samples of MakingRequests.md that no other file of this target holds; compiled, not run.

enum MakingRequestsSnippets {
    struct TodoFilter: Encodable {
        var status: [String]
        var due: Date?
        var unread: Bool
        var page: Int
    }

    func search(_ filter: TodoFilter, on network: NetworkLayer) throws(NetworkError) {
        var request = NetworkRequest<[Todo]>(urlString: "todos")
        try request.addQuery(filter)  // page=2&status%5B%5D=open&unread=true
        network.send(request) { result in print(result) }

        let form = NetworkRequest<[Todo]>(
            method: .post, urlString: "search.php",
            body: try .urlEncodedForm(filter, encoder: URLFormEncoder(boolEncoding: .numeric)))
        network.send(form) { result in print(result) }
    }
}
