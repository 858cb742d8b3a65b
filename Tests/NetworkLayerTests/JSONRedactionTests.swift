import Foundation
import Testing

@testable import NetworkLayer

@Suite("JSON members with credential names")
struct JSONRedactionTests {
    private let names: Set<String> = ["password", "access_token", "token"]

    @Test(
        "each kind of value is replaced, the rest kept byte for byte",
        arguments: [
            (#"{"password":"p\"w","n":1}"#, #"{"password":"<redacted>","n":1}"#),
            (#"{ "Access_Token" : 12345 , "x": [1]}"#, #"{ "Access_Token" : "<redacted>" , "x": [1]}"#),
            (#"{"token":{"a":"}","b":[1,{"c":2}]},"k":true}"#, #"{"token":"<redacted>","k":true}"#),
            (#"[{"token":null},{"token":false}]"#, #"[{"token":"<redacted>"},{"token":"<redacted>"}]"#),
            (#"{"user":"password","note":"token"}"#, #"{"user":"password","note":"token"}"#),
            (#"{"password": "cut off at the logger's lim"#, #"{"password": "<redacted>""#),
            ("password=hunter2&token=abc", "password=hunter2&token=abc"),
        ])
    func redacts(_ text: String, _ expected: String) {
        #expect(JSONRedaction.redacted(text, names: names) == expected)
    }

    @Test("the logger redacts bodies unless told not to")
    func optOut() {
        let body = Data(#"{"password":"hunter2"}"#.utf8)
        #expect(
            NetworkLogger(sink: { _ in }).redacted(body: body) == Data(#"{"password":"<redacted>"}"#.utf8))
        #expect(NetworkLogger(redactsBodies: false, sink: { _ in }).redacted(body: body) == body)
    }
}
