import Foundation
import NetworkLayer

/// The outbox's crash scenarios. Each item's body is `{"index":N}`, so the server can tell them apart.
enum OutboxScenarios {
    private static let queue = DispatchQueue(label: "NetworkCrashHarness.outbox")
    /// Keeps the outbox (and its lock) alive until the process ends.
    private static let kept = Locked<[AnyObject]>([])

    /// `outbox-enqueue <directory> <base URL> <count>`: enqueues `count` POSTs to `items`, writing
    /// `enqueued N` once each is on disk, then `ready`, and waits to be killed.
    static func enqueue(_ arguments: [String]) {
        guard arguments.count == 3, let count = Int(arguments[2]) else {
            HarnessOutput.fail("outbox-enqueue <directory> <base URL> <count>")
        }
        let outbox = open(directory: arguments[0], baseURL: arguments[1])
        for index in 0..<count {
            do {
                try outbox.enqueue(
                    OutboxRequest(.post, "items", body: .json(["index": index]), kind: "item", account: .any))
            } catch {
                HarnessOutput.fail("enqueue \(index) failed: \(error.message)")
            }
            HarnessOutput.line("enqueued \(index)")
        }
        HarnessOutput.line("ready")
    }

    /// `outbox-deliver <directory> <base URL>`: delivers what the outbox holds, writing `delivered N`
    /// for each item the server accepted, and `empty` (then exits) when none is left.
    static func deliver(_ arguments: [String]) {
        guard arguments.count == 2 else { HarnessOutput.fail("outbox-deliver <directory> <base URL>") }
        let outbox = open(directory: arguments[0], baseURL: arguments[1])
        let observation = outbox.addObserver(on: queue) { event in
            switch event {
            case .delivered(let item, _):
                let index = (try? JSONDecoder().decode([String: Int].self, from: item.body))?["index"]
                HarnessOutput.line("delivered \(index ?? -1)")
            case .count(waiting: 0, _):
                HarnessOutput.line("empty")
                exit(0)
            case .count, .deadLettered:
                break
            }
        }
        kept.withLock { $0.append(observation) }
    }

    private static func open(directory: String, baseURL: String) -> Outbox {
        guard let url = URL(string: baseURL) else { HarnessOutput.fail("bad base URL \(baseURL)") }
        let layer = NetworkLayer(baseURL: url, callbackQueue: queue, timeout: 5)
        var options = OutboxOptions()
        options.initialDelay = 0.05
        options.maximumDelay = 0.5
        do {
            let outbox = try Outbox(
                directory: URL(fileURLWithPath: directory), name: "crash", layer: layer, options: options)
            kept.withLock { $0.append(outbox) }
            return outbox
        } catch {
            HarnessOutput.fail("open failed: \(error.message)")
        }
    }
}
