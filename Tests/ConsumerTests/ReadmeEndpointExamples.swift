import Foundation
import NetworkLayer

// The README's endpoint sample, verbatim (see ReadmeSyncTests).

struct Post: Codable {
    let id: String
    let title: String
}

struct NewPost: Encodable {
    let title: String
}

enum PostsAPI: Endpoint {
    case list(page: Int)
    case post(id: String)
    case create(NewPost)
    case delete(id: String)

    var path: String {
        switch self {
        case .list, .create: "posts"
        case .post(let id), .delete(let id): "posts/\(pathSegment: id)"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .list, .post: .get
        case .create: .post
        case .delete: .delete
        }
    }

    var query: [String: String] {
        if case .list(let page) = self { ["page": String(page)] } else { [:] }
    }

    var body: RequestBody {
        if case .create(let new) = self { .json(new) } else { .empty }
    }
}

enum Servers {
    static let staging = APIEnvironment(
        baseURL: URL(string: "https://staging.example.com/v1/")!, headers: ["X-Client": "ios"])
    static let production = APIEnvironment(baseURL: URL(string: "https://api.example.com/v1/")!)
}

func showPosts(using network: NetworkLayer = NetworkLayer(environment: Servers.staging)) {
    network.request(
        PostsAPI.list(page: 2),
        successHandler: { (posts: [Post]) in print(posts.map(\.title)) },
        errorHandler: { error in print(error.message) })
    network.request(
        PostsAPI.create(NewPost(title: "Hello")),
        successHandler: { print("created") },
        errorHandler: { error in print(error.message) })
}
