import Foundation
import NetworkLayer
import NetworkTestSupport

// `swift run Example` runs a presenter against an embedded employees API on 127.0.0.1.
// `swift run Example --base-url URL` runs the same presenter against a real server (it also downloads
// `files/handbook.pdf` from it, with a progress bar).

func baseURLArgument() -> URL? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--base-url"), arguments.indices.contains(index + 1) else {
        return nil
    }
    return URL(string: arguments[index + 1])
}

let server: MockServer?
let baseURL: URL
if let external = baseURLArgument() {
    server = nil
    baseURL = external
    print("Using the server at \(external.absoluteString)")
} else {
    do {
        let embedded = try DemoServer.start()
        server = embedded
        baseURL = embedded.baseURL
        print("Started the demo employees API at \(embedded.baseURL.absoluteString)")
    } catch {
        print("Could not start the demo server: \(error)")
        exit(1)
    }
}

let demo = Demo(view: ConsoleView(), networkLayer: NetworkLayer(baseURL: baseURL, timeout: 2), server: server)
demo.run()
dispatchMain()
