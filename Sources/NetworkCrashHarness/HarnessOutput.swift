import Foundation

/// What the harness tells the test: one line per step, written straight to the pipe (never buffered,
/// since the test reads each line before it kills the process).
enum HarnessOutput {
    private static let lock = NSLock()

    static func line(_ text: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }

    static func fail(_ text: String) -> Never {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        exit(2)
    }
}

/// The scenarios, by name: each reads its arguments and starts its work.
enum Scenarios {
    static let all: [String: @Sendable ([String]) -> Void] = [
        "outbox-enqueue": OutboxScenarios.enqueue,
        "outbox-deliver": OutboxScenarios.deliver,
        "transfer-upload": TransferScenarios.upload,
        "transfer-download": TransferScenarios.download,
        "transfer-resume": TransferScenarios.resume,
    ]
}
