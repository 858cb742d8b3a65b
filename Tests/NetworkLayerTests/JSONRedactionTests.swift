import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("JSON members with credential names")
struct JSONRedactionTests {
    private let names = Set(["password", "access_token", "token"].map(Credentials.comparable))

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

    @Test(
        "member names written with escapes are compared as JSON reads them",
        arguments: [
            (#"{"pass\u0077ord":"hunter2"}"#, #"{"pass\u0077ord":"<redacted>"}"#),
            (
                #"{"\u0070\u0061\u0073\u0073\u0077\u006F\u0072\u0064": 1}"#,
                #"{"\u0070\u0061\u0073\u0073\u0077\u006F\u0072\u0064": "<redacted>"}"#
            ),
            (
                #"{"acc\u0065ss\u005Ftoken":"a","t\/oken":"b"}"#,
                #"{"acc\u0065ss\u005Ftoken":"<redacted>","t\/oken":"b"}"#
            ),
            (#"{"to\u006Ben":"x","n\"ame":"y"}"#, #"{"to\u006Ben":"<redacted>","n\"ame":"y"}"#),
            (#"{"pass\u00":"kept: not a valid escape"}"#, #"{"pass\u00":"kept: not a valid escape"}"#),
            (#"{"\ud83d\ude00token":"x"}"#, #"{"\ud83d\ude00token":"x"}"#),
        ])
    func escapedNames(_ text: String, _ expected: String) {
        #expect(JSONRedaction.redacted(text, names: names) == expected)
    }

    @Test(
        "names are compared in any case and without _ or -",
        arguments: [
            (
                #"{"accessToken":"a","refreshToken":"r","n":1}"#,
                #"{"accessToken":"<redacted>","refreshToken":"<redacted>","n":1}"#
            ),
            (
                #"{"AuthenticationResult":{"IdToken":"i"}}"#,
                #"{"AuthenticationResult":{"IdToken":"<redacted>"}}"#
            ),
            (
                #"{"client-secret":"s","clientSecret":"t"}"#,
                #"{"client-secret":"<redacted>","clientSecret":"<redacted>"}"#
            ),
            (#"{"x_api_key":"k","xApiKey":"l"}"#, #"{"x_api_key":"<redacted>","xApiKey":"<redacted>"}"#),
        ])
    func spellings(_ text: String, _ expected: String) {
        let body = NetworkLogger(sink: { _ in }).redacted(body: Data(text.utf8))
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    @Test(
        "form bodies have their credential fields redacted",
        arguments: [
            (
                "grant_type=refresh_token&refresh_token=RT-1&client_secret=CS%2F2",
                "grant_type=refresh_token&refresh_token=<redacted>&client_secret=<redacted>"
            ),
            (
                "user=ann&pass%77ord=x&clientSecret=y",
                "user=ann&pass%77ord=<redacted>&clientSecret=<redacted>"
            ),
            ("page=2&sort=name", "page=2&sort=name"),
            ("password = hunter2", "password = hunter2"),
        ])
    func forms(_ text: String, _ expected: String) {
        let body = NetworkLogger(sink: { _ in }).redacted(body: Data(text.utf8))
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    @Test("an empty value has nothing to hide: a named form field or query item without one stays as it is")
    func emptyValues() {
        let logger = NetworkLogger(sink: { _ in })
        let form = logger.redacted(body: Data("password=&token=abc".utf8))
        #expect(String(decoding: form, as: UTF8.self) == "password=&token=<redacted>")
        #expect(
            logger.redacted(urlString: "https://h/p?token=&sig=s#") == "https://h/p?token=&sig=<redacted>#")
    }

    @Test("a form body's secrets stay out of a curl command, and camel-cased query items out of URLs")
    func curlAndURL() throws {
        let body = try RequestBody.urlEncodedForm([
            "refresh_token": "RT-SECRET", "client_secret": "CS-SECRET",
        ])
        guard case .data(let data, _) = body else {
            Issue.record("not a data body")
            return
        }
        var request = URLRequest(
            url: URL(string: "https://auth.example.com/token?accessToken=AT-SECRET&page=2")!)
        request.httpMethod = "POST"
        request.httpBody = data
        let command = NetworkLogger(sink: { _ in }).curlCommand(for: request)
        for secret in ["RT-SECRET", "CS-SECRET", "AT-SECRET"] {
            #expect(!command.contains(secret), "\(secret) in \(command)")
        }
        #expect(command.contains("page=2"))
    }

    @Test("the logger redacts bodies unless told not to")
    func optOut() {
        let body = Data(#"{"password":"hunter2"}"#.utf8)
        #expect(
            NetworkLogger(sink: { _ in }).redacted(body: body) == Data(#"{"password":"<redacted>"}"#.utf8))
        #expect(NetworkLogger(redactsBodies: false, sink: { _ in }).redacted(body: body) == body)
    }
}
