// The Swift sample of NetworkInspector's "Inspecting traffic" article, exactly as printed there (see
// ReadmeSyncTests).

import Foundation
import NetworkInspector
import NetworkLayer
import XCTest

final class InspectingTrafficArticleTests: XCTestCase {
    func testTheArticlesSampleStartsAnInspectorOnLoopback() throws {
        let api = URL(string: "https://api.example.com/v1")!
        #if DEBUG
            let inspector = NetworkInspector()
            let network = NetworkLayer(baseURL: api, monitors: [inspector])
            let pageURL = try inspector.start()
        // Open pageURL in a browser on this Mac (a simulator shares its loopback).
        #endif
        #if DEBUG && !os(watchOS)
            XCTAssertEqual(pageURL.host, "127.0.0.1")
            XCTAssertEqual(inspector.url, pageURL)
            XCTAssertEqual(network.baseURL, api)
            inspector.stop()
            XCTAssertNil(inspector.url)
        #endif
    }
}
