import Foundation
import XCTest

@testable import NetworkLayer

/// The event-stream parser against every rule of the WHATWG HTML standard's "Interpreting an event
/// stream", the standard's own examples, and every way a stream can be cut into chunks.
final class ServerSentEventParserTests: XCTestCase {
    private func parse(
        _ chunks: [Data], maximumEventSize: Int = 1 << 20, lastEventID: String = ""
    ) throws -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser(maximumEventSize: maximumEventSize, lastEventID: lastEventID)
        var events: [ServerSentEvent] = []
        for chunk in chunks { try parser.events(in: chunk, into: &events) }
        return (events, parser)
    }

    private func parse(_ text: String) throws -> [ServerSentEvent] {
        try parse([Data(text.utf8)]).events
    }

    // MARK: - The standard's examples

    func testMultiLineDataBecomesOneEvent() throws {
        XCTAssertEqual(
            try parse("data: YHOO\ndata: +2\ndata: 10\n\n"), [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    func testCommentsIDsAndALeadingSpaceKeptAfterTheFirst() throws {
        let stream =
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        XCTAssertEqual(
            try parse(stream),
            [
                ServerSentEvent(data: "first event", id: "1"),
                // An `id` field without a value resets the last event ID.
                ServerSentEvent(data: "second event", id: nil),
                ServerSentEvent(data: " third event", id: nil),
            ])
    }

    func testEmptyDataFieldsAndALastBlockWithoutABlankLine() throws {
        XCTAssertEqual(
            try parse("data\n\ndata\ndata\n\ndata:"),
            [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
    }

    func testASpaceAfterTheColonIsOptional() throws {
        XCTAssertEqual(
            try parse("data:test\n\ndata: test\n\n"),
            [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    // MARK: - Each rule

    func testEveryLineEndingCountsAndCRLFIsOne() throws {
        let expected = [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c")]
        XCTAssertEqual(try parse("data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n"), expected)
        XCTAssertEqual(try parse("data: a\rdata: b\r\rdata: c\r\r"), expected)
        XCTAssertEqual(try parse("data: a\ndata: b\n\ndata: c\n\n"), expected)
        XCTAssertEqual(try parse("data: a\r\ndata: b\r\rdata: c\n\r\n"), expected)
    }

    func testOneLeadingByteOrderMarkIsSkippedAndOnlyOne() throws {
        XCTAssertEqual(try parse("\u{FEFF}data: a\n\n"), [ServerSentEvent(data: "a")])
        // A second mark makes the first field's name "\u{FEFF}data", which is ignored.
        XCTAssertEqual(try parse("\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n"), [ServerSentEvent(data: "b")])
    }

    func testEventTypesAndTheDefault() throws {
        XCTAssertEqual(
            try parse("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n"),
            [
                ServerSentEvent(event: "add", data: "1"), ServerSentEvent(data: "2"),
                ServerSentEvent(event: "message", data: "3"),
            ])
    }

    func testAnEventWithoutDataIsNotDispatchedButResetsTheType() throws {
        XCTAssertEqual(try parse("event: add\n\ndata: x\n\n"), [ServerSentEvent(data: "x")])
    }

    func testTheLastEventIDPersistsAndAnIDWithNULIsIgnored() throws {
        let (events, parser) = try parse(
            [Data("id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}9\ndata: c\n\nid: 9\n\n".utf8)])
        XCTAssertEqual(events.map(\.id), ["7", "7", "7"])
        // An `id` in a block without data still sets the last event ID, at the blank line.
        XCTAssertEqual(parser.lastEventID, "9")
    }

    func testAnIDTakesEffectOnlyAtTheBlankLine() throws {
        let (_, parser) = try parse([Data("id: 1\ndata: a\n\nid: 2\ndata: b".utf8)])
        XCTAssertEqual(parser.lastEventID, "1")
    }

    func testAnEarlierConnectionsLastEventIDCarriesOver() throws {
        XCTAssertEqual(try parse([Data("data: a\n\n".utf8)], lastEventID: "41").events.first?.id, "41")
    }

    func testRetryTakesDigitsOnly() throws {
        let (events, parser) = try parse(
            [
                Data(
                    "retry: 1500\ndata: a\n\nretry: 2s\ndata: b\n\nretry: -1\nretry:\nretry: 1.5\ndata: c\n\n"
                        .utf8)
            ])
        XCTAssertEqual(events.map(\.retry), [1.5, nil, nil])
        XCTAssertEqual(parser.reconnectionTime, 1.5)
    }

    func testAFieldWithoutAColonHasAnEmptyValueAndUnknownFieldsAreIgnored() throws {
        XCTAssertEqual(try parse("foo: bar\ndata\nbaz\n\n"), [ServerSentEvent(data: "")])
    }

    func testInvalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = Array("data: a".utf8) + [0xFF, 0xFE] + Array("b\n\n".utf8)
        XCTAssertEqual(try parse([Data(bytes)]).events, [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")])
    }

    func testALineOrEventLongerThanTheLimitFails() {
        XCTAssertThrowsError(
            try parse([Data(("data: " + String(repeating: "x", count: 100)).utf8)], maximumEventSize: 64))
        let many = String(repeating: "data: 0123456789\n", count: 10)
        XCTAssertThrowsError(try parse([Data(many.utf8)], maximumEventSize: 64))
        XCTAssertNoThrow(try parse([Data("data: 0123456789\n\n".utf8)], maximumEventSize: 64))
    }

    // MARK: - Chunks

    /// Every rule at once: a mark, comments, every line ending, multi-line data, types, IDs and retry.
    private let sample = Data(
        ("\u{FEFF}: hello\r\nevent: greet\r\ndata: hé\r\ndata: 🙂\r\nid: 1\r\n\r\n"
            + "data:x\rretry: 250\r\rdata: y\n\n: keep-alive\ndata: z\r\n\r\nid: 2\nevent: end\ndata\n\n")
            .utf8)

    private var sampleEvents: [ServerSentEvent] {
        [
            ServerSentEvent(event: "greet", data: "hé\n🙂", id: "1"),
            ServerSentEvent(data: "x", id: "1", retry: 0.25),
            ServerSentEvent(data: "y", id: "1"),
            ServerSentEvent(data: "z", id: "1"),
            ServerSentEvent(event: "end", data: "", id: "2"),
        ]
    }

    func testTheSampleParsesWhole() throws {
        XCTAssertEqual(try parse([sample]).events, sampleEvents)
    }

    func testEverySplitIntoTwoChunksGivesTheSameEvents() throws {
        for cut in 0...sample.count {
            let chunks = [sample.prefix(cut), sample.dropFirst(cut)].map { Data($0) }
            XCTAssertEqual(try parse(chunks).events, sampleEvents, "cut at byte \(cut)")
        }
    }

    func testByteByByteGivesTheSameEvents() throws {
        XCTAssertEqual(try parse(sample.map { Data([$0]) }).events, sampleEvents)
    }

    func testEverySplitIntoThreeChunksGivesTheSameEvents() throws {
        for first in stride(from: 0, through: sample.count, by: 3) {
            for second in first...sample.count {
                let chunks = [sample[..<first], sample[first..<second], sample[second...]].map { Data($0) }
                XCTAssertEqual(try parse(chunks).events, sampleEvents, "cuts at \(first) and \(second)")
            }
        }
    }

    // MARK: - Lines

    func testTheLineSplitterKeepsACRLFSplitAcrossChunksAsOneEnd() {
        var lines = LineSplitter(maximumLineLength: 100)
        let first = lines.lines(in: Data("a\r".utf8)).lines.map { Array($0) }
        let second = lines.lines(in: Data("\nb\n".utf8)).lines.map { Array($0) }
        XCTAssertEqual(first, [Array("a".utf8)])
        XCTAssertEqual(second, [Array("b".utf8)])
        XCTAssertNil(lines.remainder())
    }

    func testTheLineSplitterHandsBackALastLineWithoutItsEnd() {
        var lines = LineSplitter(maximumLineLength: 100)
        XCTAssertEqual(lines.lines(in: Data("{\"a\":1}\n{\"a\"".utf8)).lines.count, 1)
        XCTAssertEqual(lines.lines(in: Data(":2}".utf8)).lines.count, 0)
        XCTAssertEqual(lines.remainder().map { Array($0) }, Array("{\"a\":2}".utf8))
    }
}
