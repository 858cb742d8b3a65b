import Foundation

extension NetworkResponse {
    /// The links of the reply's `Link` headers (RFC 8288), by relation: `links["next"]` is the next page
    /// of a paginated API, `nil` on the last one. Relative targets are resolved against ``url``.
    public var links: WebLinks {
        WebLinks(headers: headers, relativeTo: url)
    }
}
