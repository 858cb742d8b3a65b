import NetworkLayer

// IsolatedItem must not compile and NonisolatedItem must; their Items.swift differ in `nonisolated`
// alone (.ci/compile-fail-check checks that too).

nonisolated struct Item: Codable {
    let name: String
}

final class ItemsPresenter {
    private let networkLayer = NetworkLayer()
    private(set) var items: [Item] = []

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/items",
            successHandler: { (items: [Item]) in self.items = items },
            errorHandler: { _ in })
    }
}
