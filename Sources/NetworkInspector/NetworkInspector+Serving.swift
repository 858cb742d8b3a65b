import Foundation
import LoopbackHTTP
import NetworkLayer

extension NetworkInspector {
    /// Starts serving the page on the loopback interface, on a port the system picks, with a new random
    /// token; does nothing more if it already serves.
    ///
    /// - Returns: The page's URL, `http://127.0.0.1:PORT/?token=…`: open it in a browser on this machine.
    /// - Throws: ``StartError/unavailable`` in a build without `DEBUG` and on watchOS, where no socket is
    ///   ever opened; ``StartError/cannotListen(_:)`` when the port can't be opened.
    @discardableResult
    public func start() throws(StartError) -> URL {
        guard isServing else { throw .unavailable }
        return try server.withLock { server -> Result<URL, StartError> in
            if let server { return .success(Self.pageURL(server.access)) }
            do throws(LoopbackError) {
                let started = try InspectorServer(fanOut: fanOut) { [store, fanOut] access in
                    InspectorRoutes(
                        access: access, store: store,
                        clear: {
                            store.clear()
                            fanOut.publish(.clear)
                        }, page: InspectorPage.html(snapshot:token:))
                }
                server = started
                return .success(Self.pageURL(started.access))
            } catch {
                return .failure(.cannotListen("\(error.operation) failed (errno \(error.code))"))
            }
        }.get()
    }

    /// Stops serving: the port and every open page's connection close. The requests recorded stay;
    /// ``start()`` serves them again, on a new port with a new token.
    public func stop() {
        let stopped = server.withLock { server in
            defer { server = nil }
            return server
        }
        stopped?.stop()
    }

    /// The page's URL while the inspector serves; `nil` before ``start()``, after ``stop()``, and always
    /// where the inspector is inert.
    public var url: URL? {
        server.withLock { $0.map { Self.pageURL($0.access) } }
    }

    private static func pageURL(_ access: AccessCheck) -> URL {
        // Both parts are digits and hexadecimal digits: the URL always parses.
        URL(string: "http://127.0.0.1:\(access.port)/?token=\(access.token)")!
    }
}
