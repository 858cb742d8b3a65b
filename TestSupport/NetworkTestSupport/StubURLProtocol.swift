import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` behind ``StubTransport``.
///
/// Each live transport owns a slot, and each slot has its own `URLProtocol` class, so a configuration
/// names its transport through `protocolClasses` alone. (A header would not do: on Linux the protocol
/// never sees the configuration's `httpAdditionalHeaders`.) The classes are generic specialisations,
/// `SlotProtocol<Next<Next<Zero>>>` for slot 2, made at run time; slots are reused, so their depth
/// stays at the number of transports alive at once.
class StubURLProtocol: URLProtocol {
    class var slot: Int { -1 }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var transports: [WeakTransport] = []

    private struct WeakTransport {
        weak var transport: StubTransport?
    }

    // Guarded by `answerLock`, which is held while the client is called: once `stopLoading()` returns,
    // the client hears nothing more from this instance. (FoundationNetworking stops the process when a
    // protocol reports on a task the session has already finished.)
    private let answerLock = NSLock()
    private var isStopped = false

    #if canImport(FoundationNetworking)
        /// `nil` once the protocol has answered or stopped. FoundationNetworking's `cancel()` reports through
        /// the protocol's client even after the task finished and left the session's registry, which stops
        /// the process; with no client there is nothing to report to.
        override var client: (any URLProtocolClient)? {
            get { answerLock.withLock { isStopped ? nil : super.client } }
            set { super.client = newValue }
        }
    #endif

    /// Gives `transport` a free slot and returns the protocol class that serves it.
    static func register(_ transport: StubTransport) -> StubURLProtocol.Type {
        let slot: Int = lock.withLock {
            let entry = WeakTransport(transport: transport)
            if let free = transports.firstIndex(where: { $0.transport == nil }) {
                transports[free] = entry
                return free
            }
            transports.append(entry)
            return transports.count - 1
        }
        return protocolClass(forSlot: slot, SlotZero.self)
    }

    private static func protocolClass<Index: SlotIndex>(forSlot slot: Int, _ index: Index.Type)
        -> StubURLProtocol.Type
    {
        slot == 0 ? SlotProtocol<Index>.self : protocolClass(forSlot: slot - 1, SlotNext<Index>.self)
    }

    private class var transport: StubTransport? {
        lock.withLock { transports.indices.contains(slot) ? transports[slot].transport : nil }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        transport != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        guard let transport = Self.transport, let url = request.url else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let response = transport.respond(to: RecordedRequest(request))
        let this = UncheckedSendable(value: self)
        if response.delay > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + response.delay) {
                this.value.answer(with: response.kind, for: url)
            }
        } else {
            answer(with: response.kind, for: url)
        }
    }

    override func stopLoading() {
        answerLock.withLock { isStopped = true }
    }

    private func answer(with kind: StubResponse.Kind, for url: URL) {
        answerLock.lock()
        defer {
            isStopped = true
            answerLock.unlock()
        }
        guard !isStopped, let client = super.client else { return }
        switch kind {
        case .failure(let error):
            client.urlProtocol(self, didFailWithError: error)
            return
        case .http(let status, let headers, let body):
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            if let response {
                client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            }
            if !body.isEmpty { client.urlProtocol(self, didLoad: body) }
        case .notHTTP(let body):
            let response = URLResponse(
                url: url, mimeType: "text/plain", expectedContentLength: body.count, textEncodingName: nil)
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty { client.urlProtocol(self, didLoad: body) }
        }
        client.urlProtocolDidFinishLoading(self)
    }
}

/// A type-level natural number: the slot a ``SlotProtocol`` serves.
protocol SlotIndex {
    static var value: Int { get }
}

enum SlotZero: SlotIndex {
    static var value: Int { 0 }
}

enum SlotNext<Previous: SlotIndex>: SlotIndex {
    static var value: Int { Previous.value + 1 }
}

/// The protocol class of one slot.
final class SlotProtocol<Index: SlotIndex>: StubURLProtocol {
    override class var slot: Int { Index.value }
}
