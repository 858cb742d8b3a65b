import Foundation
import Testing

@testable import NetworkLayer

/// A URL whose query values nest URLs without end (a hostile `Location`, say) is redacted in bounded
/// depth: on a monitor queue's thread, whose stack on Apple platforms is 512 KiB.
@Suite("Nested URLs in query values, nested deeply")
struct NestedURLDepthTests {
    @Test("thousands of nested URLs neither exhaust a secondary thread's stack nor leak a secret")
    func deepNesting() async {
        let url = "https://h/a?" + String(repeating: "n=/p?", count: 4000) + "token=SECRET"
        let line = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            let thread = Thread {
                done.resume(returning: NetworkLogger(sink: { _ in }).redacted(urlString: url))
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(!line.contains("SECRET"))
        #expect(line.hasPrefix("https://h/a?n="))
    }
}
