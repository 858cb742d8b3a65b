import Foundation
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
}
