import XCTest

@testable import NetworkLayer

/// The one compare of header names in place: ASCII letters in either case, every other byte exactly.
final class ASCIICaseTests: XCTestCase {
    func testLettersMatchInEitherCase() {
        XCTAssertTrue("Set-Cookie".equalsIgnoringASCIICase("SET-cookie"))
        XCTAssertTrue("x-ratelimit-limit".hasPrefixIgnoringASCIICase("X-RateLimit"))
        XCTAssertFalse("Set-Cookie2".equalsIgnoringASCIICase("Set-Cookie"))
        XCTAssertFalse("X-Rate".hasPrefixIgnoringASCIICase("X-RateLimit"))
    }

    /// Only letters have cases: `@` and `` ` ``, `[` and `{`, `-` and a carriage return differ by the same bit.
    func testOnlyLettersFoldCase() {
        XCTAssertFalse("@".equalsIgnoringASCIICase("`"))
        XCTAssertFalse("`".equalsIgnoringASCIICase("@"))
        XCTAssertFalse("[".hasPrefixIgnoringASCIICase("{"))
        XCTAssertFalse("X\rRateLimit".hasPrefixIgnoringASCIICase("X-RateLimit"))
    }

    /// The cache drops the fields a reply sets cookies with, in any case, the Kelvin sign for `k` included:
    /// the Linux session's cookie reading folds it to `k`, so such a field sets a cookie there, and stored it
    /// would go to disk in clear.
    func testStoredHeadersDropEveryFieldTheSessionReadsAsACookie() {
        XCTAssertEqual(CacheRules.storedHeaders(["sEt-CoOkIe": "a=1", "ETag": "v"]), ["ETag": "v"])
        XCTAssertEqual(CacheRules.storedHeaders(["Set-Coo\u{212A}ie": "a=1", "ETag": "v"]), ["ETag": "v"])
    }

    /// A name that only folds to a rate-limit field by a non-letter asks no pause.
    func testAPauseNeedsTheFieldsRealName() {
        XCTAssertFalse(NetworkLayer.mayAskPause(statusCode: 200, ["X\rRateLimit-Remaining": "0"]))
        XCTAssertTrue(NetworkLayer.mayAskPause(statusCode: 200, ["x-ratelimit-remaining": "0"]))
    }
}
