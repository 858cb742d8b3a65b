import Foundation
import Testing

@testable import NetworkLayer

/// The spellings the redirect policy and the token authenticator read through `Origin`.
@Suite("Origin")
struct OriginTests {
    @Test(
        "spellings of one origin",
        arguments: [
            ("http://127.0.0.1:8080/a", "HTTP://127.0.0.1:8080/b"),
            ("http://example.com/a", "http://EXAMPLE.com:80/b"),
            ("https://example.com/", "https://example.com:443"),
            ("http://example.com/", "http://user:pass@example.com/"),
            ("http://[::1]:8080/", "http://[0:0:0:0:0:0:0:1]:8080/x"),
            ("http://[FE80::1]/", "http://[fe80:0::0001]:80/"),
        ])
    func same(_ first: String, _ second: String) throws {
        let one = try #require(origin(first))
        #expect(one == origin(second))
    }

    @Test(
        "spellings of different origins",
        arguments: [
            ("http://127.0.0.1:8080/", "http://127.0.0.1/"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:80/"),
            ("http://localhost:8080/", "http://127.0.0.1:8080/"),
            ("http://example.com/", "http://example.com./"),
            ("http://example.com/", "https://example.com/"),
            ("http://example.com:443/", "https://example.com/"),
            ("http://[::1]/", "http://127.0.0.1/"),
            ("http://[::1]/", "http://[::2]/"),
        ])
    func different(_ first: String, _ second: String) throws {
        let one = try #require(origin(first))
        #expect(one != origin(second))
    }

    @Test("relative and protocol-relative references take the base's missing parts")
    func relative() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/start"))
        #expect(origin("/next", relativeTo: base) == Origin(base))
        #expect(origin("next?x=1", relativeTo: base) == Origin(base))
        #expect(origin("//127.0.0.1:8080/next", relativeTo: base) == Origin(base))
        #expect(origin("//127.0.0.1/next", relativeTo: base)?.port == 80)
        #expect(origin("https://127.0.0.1:8080/", relativeTo: base) != Origin(base))
    }

    @Test(
        "no origin without http(s) and a host",
        arguments: ["file:///etc/passwd", "data:,x", "mailto:a@b", "http:///x"])
    func none(_ string: String) {
        #expect(origin(string) == nil)
    }
}

/// The origin of `string` read as a URL, relative ones resolved against `base`.
private func origin(_ string: String, relativeTo base: URL? = nil) -> Origin? {
    URL(string: string, relativeTo: base).flatMap(Origin.init)
}
