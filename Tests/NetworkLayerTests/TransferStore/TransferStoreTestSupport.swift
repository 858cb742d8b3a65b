import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

extension XCTestCase {
    /// A started tus `MockServer`, stopped and its stored uploads removed when the test ends.
    func tusServer() throws -> (MockServer, TusHandler) {
        let server = MockServer()
        let tus = server.serveTus()
        try server.start()
        addTeardownBlock {
            server.stop()
            tus.removeStoredFiles()
        }
        return (server, tus)
    }

    /// A layer whose requests fail at once: nothing listens.
    func unreachableLayer() throws -> NetworkLayer {
        let server = MockServer()
        try server.start()
        let url = server.baseURL
        server.stop()
        return NetworkLayer(baseURL: url)
    }
}
