import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` behind ``StubTransport``.
///
/// Each transport owns a slot, and each slot has its own `URLProtocol` class, so a configuration names
/// its transport through `protocolClasses` alone. (A header would not do: on Linux the protocol never
/// sees the configuration's `httpAdditionalHeaders`.) The classes are generic specialisations made at
/// run time, one type parameter per binary digit of the slot: `SlotProtocol<One<Zero<Root>>>` serves
/// slot 2. Slots are never reused, so a layer that outlives its transport can never be answered by
/// another test's stubs.
class StubURLProtocol: URLProtocol {
    class var slot: Int { -1 }

    /// Every transport registered, by slot.
    private static let transports = Locked<[WeakTransport]>([])

    private struct WeakTransport {
        weak var transport: StubTransport?
    }

    private struct AnswerState {
        /// Set once the reply starts going to the client: from then on `client` is `nil`, because
        /// FoundationNetworking's `cancel()` reports through it even after the task finished and left the
        /// session's registry, which stops the process.
        var answered = false
        /// Set by `stopLoading()`: a delayed reply is then never sent.
        var stopped = false
    }

    /// The reply and `stopLoading()` each decide under its lock whether the other came first; the client is
    /// called after, outside it, as nothing calls into URLSession under a `Locked`.
    private let state = Locked(AnswerState())

    #if canImport(FoundationNetworking)
        override var client: (any URLProtocolClient)? {
            get { state.withLock { $0.answered ? nil : super.client } }
            set { super.client = newValue }
        }
    #endif

    /// Gives `transport` a new slot and returns the protocol class that serves it.
    static func register(_ transport: StubTransport) -> StubURLProtocol.Type {
        let slot: Int = transports.withLock { transports in
            transports.append(WeakTransport(transport: transport))
            return transports.count - 1
        }
        return protocolClass(number: slot + 1, SlotRoot.self)
    }

    /// Builds the type for `number` (slot + 1, so it always has a leading one bit), one binary digit at a
    /// time from the most significant: `0b110` is `SlotZero<SlotOne<SlotRoot>>`.
    private static func protocolClass<Index: SlotIndex>(number: Int, _ index: Index.Type)
        -> StubURLProtocol.Type
    {
        protocolClass(digits: String(number, radix: 2).dropFirst(), index)
    }

    private static func protocolClass<Index: SlotIndex>(digits: Substring, _ index: Index.Type)
        -> StubURLProtocol.Type
    {
        guard let digit = digits.first else { return SlotProtocol<Index>.self }
        return digit == "0"
            ? protocolClass(digits: digits.dropFirst(), SlotZero<Index>.self)
            : protocolClass(digits: digits.dropFirst(), SlotOne<Index>.self)
    }

    private class var transport: StubTransport? {
        transports.withLock { transports in
            transports.indices.contains(slot) ? transports[slot].transport : nil
        }
    }

    /// Every request of a stub configuration is the stub's to answer, even once its transport is gone:
    /// it must never fall through to the real network.
    override class func canInit(with request: URLRequest) -> Bool {
        true
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        guard let url = request.url else {
            answer(with: .failure(URLError(.badURL)), for: URL(fileURLWithPath: "/"))
            return
        }
        guard let transport = Self.transport else {
            let message =
                "StubTransport: the transport behind this configuration was deallocated; a layer from "
                + "makeNetworkLayer() keeps it, one built from makeConfiguration() doesn't: keep a reference "
                + "to the transport for as long as such a layer sends requests"
            answer(
                with: .failure(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message])),
                for: url)
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
        let cancelledBeforeAnswer = state.withLock { state in
            defer { state.stopped = true }
            return !state.answered && !state.stopped
        }
        if cancelledBeforeAnswer { Self.transport?.recordCancellation(of: RecordedRequest(request)) }
    }

    private func answer(with kind: StubResponse.Kind, for url: URL) {
        let client: (any URLProtocolClient)? = state.withLock { state in
            guard !state.stopped, !state.answered, let client = super.client else { return nil }
            state.answered = true
            return client
        }
        guard let client else { return }
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

/// A type-level binary number: the slot a ``SlotProtocol`` serves.
protocol SlotIndex {
    static var value: Int { get }
}

/// The leading one bit.
enum SlotRoot: SlotIndex {
    static var value: Int { 1 }
}

/// `Higher` followed by a zero bit.
enum SlotZero<Higher: SlotIndex>: SlotIndex {
    static var value: Int { Higher.value * 2 }
}

/// `Higher` followed by a one bit.
enum SlotOne<Higher: SlotIndex>: SlotIndex {
    static var value: Int { Higher.value * 2 + 1 }
}

/// The protocol class of one slot.
final class SlotProtocol<Index: SlotIndex>: StubURLProtocol {
    override class var slot: Int { Index.value - 1 }
}
