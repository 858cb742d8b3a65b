import Foundation
import TestKit
import XCTest

@testable import NetworkLayer

final class URLResolverTests: XCTestCase {
    func testRelativePathsJoinTheBasePathWithOneSlash() throws {
        let cases: [(base: String, path: String, expected: String)] = [
            ("https://api.example.com/v1", "users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1", "/users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1/", "users", "https://api.example.com/v1/users"),
            ("https://api.example.com/v1/", "/users", "https://api.example.com/v1/users"),
            ("https://api.example.com", "users", "https://api.example.com/users"),
            ("https://api.example.com/", "/users/", "https://api.example.com/users/"),
            ("https://api.example.com/v1", "users/7/posts", "https://api.example.com/v1/users/7/posts"),
            ("https://api.example.com/v1", "", "https://api.example.com/v1"),
            ("https://api.example.com/v1", "users?active=1", "https://api.example.com/v1/users?active=1"),
            ("http://127.0.0.1:8080/api", "users", "http://127.0.0.1:8080/api/users"),
        ]
        for (base, path, expected) in cases {
            let resolver = URLResolver(baseURL: URL(string: base))
            XCTAssertEqual(try resolver.url(for: path).absoluteString, expected, "\(base) + \(path)")
        }
    }

    /// A relative path's own query, alone or merged with the request's, whichever parse takes it (the one
    /// parse for plain characters, the full one for the rest): an empty `?` goes, a fragment goes.
    func testARelativePathsOwnQueryMergesWithTheRequestsAsTheFullParseDoes() throws {
        let resolver = URLResolver(baseURL: URL(string: "https://api.example.com/v1"))
        let cases: [(path: String, query: String, expected: String)] = [
            ("users?active=1", "page=2", "https://api.example.com/v1/users?active=1&page=2"),
            ("users?a=1&b=~x", "", "https://api.example.com/v1/users?a=1&b=~x"),
            ("users?", "", "https://api.example.com/v1/users"),
            ("users?", "page=2", "https://api.example.com/v1/users?page=2"),
            ("users?q=a%20b", "page=2", "https://api.example.com/v1/users?q=a%20b&page=2"),
            ("users?a=1#top", "", "https://api.example.com/v1/users?a=1"),
            ("/users/?x=1", "", "https://api.example.com/v1/users/?x=1"),
        ]
        for (path, query, expected) in cases {
            XCTAssertEqual(try resolver.url(for: path, query: query).absoluteString, expected, path)
        }
        XCTAssertThrowsError(try resolver.url(for: "a/..?x=1"))
    }

    func testAbsoluteStringsIgnoreTheBaseURL() throws {
        let resolver = URLResolver(baseURL: URL(string: "https://api.example.com/v1"))
        XCTAssertEqual(
            try resolver.url(for: "https://other.example.com/x?y=1").absoluteString,
            "https://other.example.com/x?y=1")
        XCTAssertEqual(
            try URLResolver(baseURL: nil).url(for: "HTTP://example.com/").absoluteString,
            "HTTP://example.com/")
    }

    /// An absolute URL comes out as written (the query merged into its own); one without a host is refused, and
    /// so is any absolute URL where only a path is allowed.
    func testAbsoluteURLsKeepTheirFormAndNeedAHost() throws {
        let resolver = URLResolver(baseURL: URL(string: "https://api.example.com/v1"))
        let plain = [
            "http://127.0.0.1:8080/employees", "https://cdn.example.com", "https://a.example.com/x/../y",
            "http://h-1.example.com:80/a_b/c.json", "http://[::1]:8080/x",
            "https://a.example.com/a%20b?c=d#e", "http://a.example.com/a b|c",
        ]
        for string in plain {
            XCTAssertEqual(try resolver.url(for: string), URLComponents(string: string)?.url, string)
        }
        XCTAssertEqual(
            try resolver.url(for: "http://127.0.0.1:8080/employees", query: "a=1").absoluteString,
            "http://127.0.0.1:8080/employees?a=1")
        XCTAssertEqual(
            try resolver.url(for: "https://a.example.com/x?c=d#e", query: "a=1").absoluteString,
            "https://a.example.com/x?c=d&a=1#e")
        for string in ["http://:80/x", "http:///x", "https://", "http://a:b:c/"] {
            XCTAssertThrowsError(try resolver.url(for: string), string)
        }
        XCTAssertThrowsError(try resolver.url(for: "https://cdn.example.com/x", requiringPath: true))
    }

    func testQueryIsPercentEncodedAndSorted() throws {
        let resolver = URLResolver(baseURL: URL(string: "https://api.example.com"))
        let url = try resolver.url(
            for: "search?page=2",
            query: PercentEncoding.query(["q": "a+b & c=d/e", "city": "Zürich", "empty": "", "ü": "x"]))
        XCTAssertEqual(
            url.absoluteString,
            "https://api.example.com/search?page=2&city=Z%C3%BCrich&empty=&q=a%2Bb%20%26%20c%3Dd%2Fe&%C3%BC=x"
        )
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        XCTAssertEqual(items.first { $0.name == "q" }?.value, "a+b & c=d/e")
        XCTAssertEqual(items.first { $0.name == "city" }?.value, "Zürich")
    }

    func testInvalidInputIsRefused() {
        let withBase = URLResolver(baseURL: URL(string: "https://api.example.com/v1"))
        let withoutBase = URLResolver(baseURL: nil)
        let refused: [(URLResolver, String)] = [
            (withoutBase, ""),
            (withoutBase, "users"),
            (withoutBase, "not a url"),
            (withoutBase, "ht tp://example.com"),
            (withoutBase, "http://[::1"),
            (withoutBase, "http://"),
            (withoutBase, "https:///path"),
            (withoutBase, "file:///etc/passwd"),
            (withoutBase, "ftp://example.com/file"),
            (withoutBase, "data:text/plain,hello"),
            (withoutBase, "mailto:someone@example.com"),
            (withBase, "//evil.example.com/x"),
            (withBase, "file:///etc/passwd"),
            (URLResolver(baseURL: URL(string: "ftp://example.com")), "users"),
        ]
        for (resolver, string) in refused {
            XCTAssertThrowsError(try resolver.url(for: string), string.debugDescription) { error in
                guard case NetworkError.invalidURL(let reported) = error else {
                    return XCTFail("\(string.debugDescription) gave \(error)")
                }
                XCTAssertEqual(reported, string)
            }
        }
    }
}
