import Foundation

/// One link of a reply's `Link` header (RFC 8288); named `WebLink` so it doesn't clash with SwiftUI's `Link`.
public struct WebLink: Sendable, Equatable {
    /// The target, resolved against the URL that answered when the header gave a relative reference.
    public var url: URL
    /// The relation types, lowercased: `rel="next last"` gives `["next", "last"]`.
    public var relations: [String]
    /// The link's other parameters by lowercased name (`title`, `type`, `hreflang`), unquoted.
    public var attributes: [String: String]

    /// Creates a link.
    ///
    /// - Parameters:
    ///   - url: The target.
    ///   - relations: The relation types; they are lowercased.
    ///   - attributes: The target attributes (`title`, `type`, ...), by name; names are lowercased.
    public init(url: URL, relations: [String], attributes: [String: String] = [:]) {
        self.url = url
        self.relations = relations.map { $0.lowercased() }
        self.attributes = Dictionary(
            attributes.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// The links of a reply's `Link` headers (RFC 8288), looked up by relation: `links["next"]`.
///
/// ```swift
/// network.send(NetworkRequest<[Item]>(urlString: "items")) { result in
///     guard let page = try? result.get() else { return }
///     show(page.value)
///     nextPage = page.links["next"]  // nil on the last page
/// }
/// ```
///
/// Every `Link` field is read, each may list several links; a malformed link is skipped.
public struct WebLinks: Sendable, Equatable, Sequence {
    /// Every link, in the order the server listed them.
    public let all: [WebLink]

    /// Links from a list.
    ///
    /// - Parameter links: The links, in order.
    public init(_ links: [WebLink] = []) {
        all = links
    }

    /// The links of `headers`' `Link` fields, relative targets resolved against `url`.
    ///
    /// - Parameters:
    ///   - headers: A reply's headers.
    ///   - url: The URL that answered, for relative targets; without it they are skipped.
    public init(headers: ResponseHeaders, relativeTo url: URL?) {
        let values = headers.filter { $0.key.caseInsensitiveCompare("Link") == .orderedSame }.map(\.value)
        all = values.flatMap { LinkHeaderParser.links(in: $0, relativeTo: url) }
    }

    /// The target of the first link with the relation `relation` (in any case); `nil` if there is none.
    ///
    /// - Parameter relation: A relation type such as `next`, `prev`, `first` or `last`.
    public subscript(relation: String) -> URL? {
        let wanted = relation.lowercased()
        return all.first { $0.relations.contains(wanted) }?.url
    }

    /// Whether there are no links.
    public var isEmpty: Bool { all.isEmpty }

    /// Iterates the links in order.
    public func makeIterator() -> IndexingIterator<[WebLink]> {
        all.makeIterator()
    }
}
