import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The platform facts' own logic with both platforms' values, the test standing in for the system's
/// half where FoundationNetworking can't behave the Apple way. Which fact runs where: <doc:LinuxNotes>.
final class PlatformFactsTests: XCTestCase {
    private let url = URL(string: "https://api.example.com/v1/items")!

    private func cookies(_ facts: PlatformFacts) throws -> (SessionCookies, HTTPCookieStorage) {
        let storage = try XCTUnwrap(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let cookie = try XCTUnwrap(
            HTTPCookie(properties: [
                .name: "session", .value: "stored", .domain: "api.example.com", .path: "/",
            ]))
        storage.setCookie(cookie)
        return (SessionCookies(storage: storage, facts: facts), storage)
    }

    private func reply(setting cookie: String) -> HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Set-Cookie": cookie])
    }

    /// Apple's URLSession adds the storage's cookies itself, so the request the layer hands it carries
    /// none and still lets it; a request with its own `Cookie` field or declining cookies gets none.
    func testWithAppleFactsTheSessionAddsCookiesUnlessTheRequestHasItsOwn() throws {
        let (cookies, _) = try cookies(.apple)
        let request = URLRequest(url: url)
        let handed = cookies.attaching(nil, to: request)
        XCTAssertNil(handed.value(forHTTPHeaderField: "Cookie"))
        XCTAssertTrue(handed.httpShouldHandleCookies, "URLSession adds them")
        XCTAssertEqual(cookies.header(for: request), "session=stored")

        var own = request
        own.setValue("mine=1", forHTTPHeaderField: "Cookie")
        XCTAssertNil(cookies.header(for: own))
        XCTAssertNil(cookies.pinned(for: own), "nothing to pin: the request's own field goes")
        var declining = request
        declining.httpShouldHandleCookies = false
        XCTAssertNil(cookies.pinned(for: declining))
    }

    /// A pinned attempt on Apple platforms: the layer writes the cookie it was keyed by and turns the
    /// session's handling off for it, then stores the reply's cookies itself; an unpinned reply's cookies
    /// are left to URLSession.
    func testWithAppleFactsAPinnedAttemptCarriesAndStoresItsOwnCookies() throws {
        let (cookies, storage) = try cookies(.apple)
        let pinned = try XCTUnwrap(cookies.pinned(for: URLRequest(url: url)))
        storage.deleteCookie(try XCTUnwrap(storage.cookies(for: url)?.first))

        let handed = cookies.attaching(pinned, to: URLRequest(url: url))
        XCTAssertEqual(handed.value(forHTTPHeaderField: "Cookie"), "session=stored")
        XCTAssertFalse(handed.httpShouldHandleCookies, "URLSession neither adds nor stores for it")

        cookies.store(from: reply(setting: "left=1; Path=/"))
        XCTAssertEqual(
            storage.cookies(for: url)?.count ?? 0, 0, "URLSession stores an unpinned reply's cookies")
        cookies.store(from: reply(setting: "kept=2; Path=/"), pinned: true)
        XCTAssertEqual(storage.cookies(for: url)?.map(\.name), ["kept"])
    }

    /// Linux's facts: the layer writes the storage's cookie in place of the request's own and stores every
    /// reply's cookies.
    func testWithLinuxFactsTheLayerSendsAndStoresEveryCookie() throws {
        let (cookies, storage) = try cookies(.linux)
        var own = URLRequest(url: url)
        own.setValue("mine=1", forHTTPHeaderField: "Cookie")
        XCTAssertEqual(cookies.attaching(nil, to: own).value(forHTTPHeaderField: "Cookie"), "session=stored")
        cookies.store(from: reply(setting: "kept=2; Path=/"))
        XCTAssertEqual(Set(storage.cookies(for: url)?.map(\.name) ?? []), ["session", "kept"])
    }

    /// ``PlatformFacts/answersStoppedTasks``. A redirect of a task the layer no longer runs: Apple's
    /// session is told not to follow it; on Linux it is left unanswered, as answering it stops the process
    /// (`HTTPURLProtocol.swift:705`, DESIGN.md "Traps in FoundationNetworking 6.3.1"), so Apple's value is
    /// run here against a completion handler standing in for the session's, never against libcurl's.
    func testAStoppedTasksRedirectIsAnsweredOnlyWithAppleFacts() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: url)  // never resumed: no transfer runs it
        let redirect = try XCTUnwrap(
            HTTPURLResponse(
                url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": "/b"]))
        for (facts, answered) in [(PlatformFacts.apple, true), (.linux, false)] {
            let delegate = SessionDelegate()
            delegate.facts = facts
            let answers = Locked<[URLRequest?]>([])
            delegate.urlSession(
                session, task: task, willPerformHTTPRedirection: redirect, newRequest: URLRequest(url: url)
            ) { next in answers.withLock { $0.append(next) } }
            XCTAssertEqual(answers.withLock { $0.count }, answered ? 1 : 0, "\(facts)")
            XCTAssertNil(answers.withLock { $0.first } ?? nil, "not followed")
        }
    }

    /// Every fact has its two values, and this build reads the ones of the system it was built for.
    func testThisBuildReadsItsPlatformsFacts() {
        #if canImport(FoundationNetworking) && !NETWORKLAYER_APPLE_BRANCHES
            XCTAssertEqual(PlatformFacts.current, .linux)
            XCTAssertEqual(SessionTransport(configuration: .ephemeral).facts, .linux)
        #else
            XCTAssertEqual(PlatformFacts.current, .apple)
        #endif
        let flags: (PlatformFacts) -> [Bool] = {
            [
                $0.sendsUploadsNatively, $0.losesRedirectedBodies, $0.answersStoppedTasks,
                $0.layerHandlesCookies,
                $0.replacesRequestCookies, $0.capitalizesHeaderNames, $0.chunksStreamsWithLength,
                $0.honoursTaskPriority,
            ]
        }
        XCTAssertEqual(flags(.linux), flags(.apple).map { !$0 }, "each fact differs")
    }
}
