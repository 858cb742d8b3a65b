import Foundation
import NetworkLayer
import NetworkTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A MockServer that stores every upload on disk as it arrives: tus 1.0 through a ``TusHandler``, and
/// `POST /upload` written to a file of its own; with the clients that send to it.
final class StoringServer: Sendable {
    private let server: MockServer
    private let tus: TusHandler
    private let plainFile: URL
    let network: NetworkLayer
    private let session = URLSession(configuration: .default)

    init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plainFile = folder.appendingPathComponent("plain.bin")
        let server = MockServer()
        let tus = server.serveTus()
        let tusBodies = tus.bodyHandler
        server.bodyHandler = { request in
            guard request.path == "/upload" else { return tusBodies(request) }
            return Self.storing(into: plainFile)
        }
        try server.start()
        (self.server, self.tus, self.plainFile) = (server, tus, plainFile)
        network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "benchmark-resumable"))
    }

    /// A receiver writing the body over `file`; `nil` when the file can't be made.
    private static func storing(into file: URL) -> MockBodyReceiver? {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else { return nil }
        return MockBodyReceiver(
            receive: { try? handle.write(contentsOf: $0) },
            finish: { _ in
                try? handle.close()
                return MockResponse(status: 201)
            })
    }

    /// The size of what the server stored for `client`'s last upload.
    func storedLength(of client: String) -> Int {
        let file = client == "tus" ? tus.storedFiles.last : plainFile
        let size = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int }
        return size ?? -1
    }

    /// Raw URLSession's `uploadTask(fromFile:)` to `/upload`.
    func rawUpload(_ file: URL, completion: @escaping @Sendable (Bool) -> Void) {
        guard let url = server.url("upload") else { return completion(false) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        session.uploadTask(with: request, fromFile: file) { _, response, error in
            completion(error == nil && (response as? HTTPURLResponse)?.statusCode == 201)
        }.resume()
    }

    func stop() {
        server.stop()
        tus.removeStoredFiles()
        try? FileManager.default.removeItem(at: plainFile.deletingLastPathComponent())
    }
}
