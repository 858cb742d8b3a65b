import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A test case whose layer runs the real pipeline against a ``StubTransport``.
class PipelineTestCase: XCTestCase {
    var stubs = StubTransport()
    lazy var network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com/v1"))
}
