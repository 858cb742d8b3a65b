import Foundation
import NetworkLayer
import XCTest

// The README's streaming sample, verbatim (`ReadmeSyncTests`).

/// Stands in for a label on screen in the sample.
final class AnswerLabel {
    var text = ""
    var isTyping = true
}

enum ReadmeStreamingExample {
    static func showAnswer(_ network: NetworkLayer, label: AnswerLabel) {
        let request = NetworkRequest<Data>(
            method: .post, urlString: "chat", body: .json(["question": "Why?"]))
        network.stream(request, as: .serverSentEvents) { event in
            label.text += event.data
        } completionHandler: { result in
            label.isTyping = false
        }
    }
}
