import Foundation
import NetworkLayer

/// Streams the demo assistant's answer (server-sent events) and writes each word as it arrives.
struct ChatStream {
    let networkLayer: NetworkLayer

    func run(then next: @escaping () -> Void) {
        let request = NetworkRequest<Data>(
            method: .post, urlString: "chat", body: .json(["question": "Streams?"]))
        print("  ", terminator: "")
        networkLayer.stream(request, as: .serverSentEvents) { event in
            print(event.data, terminator: "")
            // Every stream flushed (`stdout` itself isn't concurrency-safe to name), so the word shows now.
            fflush(nil)
        } completionHandler: { result in
            switch result {
            case .success(let summary): print("\n  (\(summary.eventCount) events)")
            case .failure(let error): print("\n  The stream failed: \(error.message)")
            }
            next()
        }
    }
}
