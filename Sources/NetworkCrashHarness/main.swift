import Foundation

// A child process for the crash tests: the tests start it with a scenario and its arguments, read the
// lines it writes, and kill it with SIGKILL wherever they choose. Not a product: no app sees it.
//
//     NetworkCrashHarness <scenario> <arguments…>

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let scenario = Scenarios.all[name] else {
    HarnessOutput.fail("usage: NetworkCrashHarness <\(Scenarios.all.keys.sorted().joined(separator: "|"))> …")
}
scenario(Array(arguments.dropFirst()))
// The scenario's work goes on on its queues until the test kills the process or the scenario exits.
dispatchMain()
