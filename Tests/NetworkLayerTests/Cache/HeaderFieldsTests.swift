import XCTest

@testable import NetworkLayer

/// The cache's header lookups: any case of a name finds its field, and nothing else does (they compare in
/// place instead of lower-casing every name, issue 49).
final class HeaderFieldsTests: XCTestCase {
    func testAnyCaseOfANameFindsItsField() {
        let fields: HeaderFields = ["Cache-Control": "max-age=60", "x-api-key": "k", "ETAG": "\"v\""]
        XCTAssertEqual(fields["cache-control"], "max-age=60")
        XCTAssertEqual(fields["CACHE-CONTROL"], "max-age=60")
        XCTAssertEqual(fields["X-Api-Key"], "k")
        XCTAssertEqual(fields["ETag"], "\"v\"")
        XCTAssertEqual(fields.cacheControl?.maxAge, 60)
    }

    /// Only letters have cases: `@` and `` ` ``, `[` and `{`, `-` and a carriage return differ by the same bit.
    func testOnlyLettersFoldCase() {
        let fields: HeaderFields = ["X@": "1", "X[": "2", "X-A": "3", "Age": "4"]
        XCTAssertNil(fields["x`"])
        XCTAssertNil(fields["x{"])
        XCTAssertNil(fields["x\rA"])
        XCTAssertNil(fields["Ages"])
        XCTAssertNil(fields["Ag"])
        XCTAssertEqual(fields["x@"], "1")
        XCTAssertEqual(fields["x["], "2")
    }

    /// A name that isn't a token still matches as `lowercased()` makes it, as the cache always has.
    func testANonASCIINameComparesLowerCased() {
        let fields: HeaderFields = ["Ä-Feld": "1"]
        XCTAssertEqual(fields["ä-feld"], "1")
        XCTAssertNil(fields["a-feld"])
        XCTAssertEqual(HeaderFields(["\u{212A}ey": "2"])["key"], "2", "the Kelvin sign lower-cases to k")
    }

    /// A reply without cookies is stored as it came; one with them, in any spelling, without them.
    func testStoredHeadersDropCookiesInAnySpelling() {
        let plain = ["Content-Type": "application/json", "ETag": "\"v\""]
        XCTAssertEqual(CacheRules.storedHeaders(plain), plain)
        let cookies = ["content-type": "text/plain", "SET-COOKIE": "a=1", "set-cookie2": "b=2"]
        XCTAssertEqual(CacheRules.storedHeaders(cookies), ["content-type": "text/plain"])
        XCTAssertEqual(CacheRules.storedHeaders(["set-Cookie": "a=1", "ETag": "\"v\""]), ["ETag": "\"v\""])
    }
}
