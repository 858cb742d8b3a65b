import Foundation

/// Writes made without a network, sent later, in order, exactly once, across relaunches.
///
/// An item is on disk before ``enqueue(_:)`` returns; the outbox sends the items of its queue one at a
/// time, oldest first, through its layer's whole pipeline (interceptors, token refresh, monitors), each
/// with the `Idempotency-Key` it was given when enqueued, so a server that keeps the idempotency contract
/// acts on it once however often a lost reply makes it come again.
///
/// ```swift
/// let outbox = try Outbox(directory: supportFolder, name: "messages", layer: network)
/// let id = try outbox.enqueue(
///     OutboxRequest(.post, "messages", body: .json(draft), kind: "message.send", account: userID))
/// ```
///
/// Each item is for one account (``OutboxRequest/Account``): the one named, or the one signed in when it
/// is enqueued; it never goes out with another user's token.
///
/// The layer is an argument of `init`, not given later: its clock dates each item (enqueue, expiry) and
/// times every wait, so an outbox without one could not date what it stores. Delivery starts at once.
/// See <doc:OfflineOutbox> for the delivery rules, what is stored and the server's side of the contract.
public final class Outbox: Sendable {
    /// The directory the outbox's folder is in.
    public let directory: URL
    /// The outbox's name: its folder is `<name>.outbox` in ``directory``.
    public let name: String
    /// How it stores and delivers.
    public let options: OutboxOptions
    let layer: NetworkLayer
    let storage: any OutboxStorage
    /// Owns ``state`` changes and every storage call, in order; targets the disk queue.
    let queue = DispatchQueue(label: "NetworkLayer.Outbox", target: Queues.disk)
    let state: Locked<OutboxState>
    /// The files found damaged when the outbox opened, set aside (renamed `*.damaged`) and not sent.
    public let damagedFiles: [URL]

    /// Opens the outbox `name` in `directory` (creating it) and starts delivering its items through
    /// `layer`.
    ///
    /// - Parameters:
    ///   - directory: Where the outbox keeps its folder, such as the app's Application Support directory.
    ///   - name: Which outbox: independent writes go in separate outboxes, each its own queue.
    ///   - layer: What sends the items; its base URL resolves their paths, its clock times them.
    ///   - options: Durability, backoff, limits, expiry, accounts.
    /// - Throws: ``OutboxError/inUse`` when another outbox (in any process) has this directory and name;
    ///   ``OutboxError/writeFailed(_:)`` when the folder can't be made.
    public convenience init(
        directory: URL, name: String = "outbox", layer: NetworkLayer, options: OutboxOptions = OutboxOptions()
    ) throws(OutboxError) {
        let storage = try OutboxDiskStorage(
            directory: directory, name: name, maximumSize: options.maximumSize, recordKey: options.recordKey)
        self.init(directory: directory, name: name, storage: storage, layer: layer, options: options)
    }

    /// An outbox on `storage`: a test double's memory.
    ///
    /// - Parameters:
    ///   - directory: Reported as ``directory``.
    ///   - name: The outbox's name.
    ///   - storage: Where the items are kept.
    ///   - layer: What sends the items.
    ///   - options: Durability, backoff, limits, expiry, accounts.
    package init(
        directory: URL, name: String, storage: any OutboxStorage, layer: NetworkLayer, options: OutboxOptions
    ) {
        self.directory = directory
        self.name = name
        self.storage = storage
        self.layer = layer
        self.options = options
        let contents = storage.load()
        damagedFiles = contents.damaged
        state = Locked(OutboxState(items: contents.items, nextSequence: contents.nextSequence))
        queue.async { self.deliverNext() }
    }

    deinit {
        state.withLock { $0.stop() }?.cancel()
        storage.close()
    }

    /// Stops delivering (an attempt on its way is cancelled) and releases the directory, so another outbox
    /// (in this process or another) may open it; later calls fail with ``OutboxError/closed``. Deinitializing
    /// the outbox does the same.
    public func close() {
        let call = queue.sync { () -> ComposedCall? in
            defer { storage.close() }
            return state.withLock { $0.stop() }
        }
        call?.cancel()
    }

    /// Stores `request` and returns its identifier once it is on disk (in the operating system's hands:
    /// it survives the process being killed; with ``OutboxOptions/flushesToDevice``, a power loss too).
    ///
    /// The item is for the request's account: with ``OutboxRequest/Account/current`` (no `account:`), the
    /// one signed in now (the layer's ``BearerTokenAuthenticator``'s, else ``NetworkLayer/account``), read
    /// here and stored, so a later sign-in as someone else holds the item rather than sending it as them.
    ///
    /// - Parameter request: A `POST`, `PUT`, `PATCH` or `DELETE`, without credential headers.
    /// - Returns: The item's identifier, for ``remove(_:)`` and to match events.
    /// - Throws: ``OutboxError/writeFailed(_:)`` (a full disk: nothing was stored),
    ///   ``OutboxError/full``, ``OutboxError/unsupportedMethod(_:)``, ``OutboxError/encodingFailed(_:)``,
    ///   ``OutboxError/noAccount`` (no account named and no one signed in) or
    ///   ``OutboxError/credentialHeaders(_:)`` (a header from the layer's credential list). Nothing is
    ///   stored when it throws.
    @discardableResult
    public func enqueue(_ request: OutboxRequest) throws(OutboxError) -> UUID {
        try change { () throws(OutboxError) in
            let item = try makeItem(request)
            try storage.save(item, flushToDevice: options.flushesToDevice)
            state.withLock { $0.items.append(item) }
            return item.id
        }
    }

    /// The items waiting, dead letters included, in the order they go out.
    public var items: [OutboxItem] {
        state.withLock { $0.items }
    }

    /// The items waiting for the app: rejected, expired or for another account.
    public var deadLetters: [OutboxItem] {
        items.filter { $0.deadLetter != nil }
    }

    /// Removes an item; it is never sent after this returns (an attempt already on its way is cancelled,
    /// though the server may have received it). Removing a dead letter lets its queue go on.
    ///
    /// - Parameter id: The item's identifier.
    /// - Throws: ``OutboxError/notFound`` when no item has it.
    public func remove(_ id: UUID) throws(OutboxError) {
        try change { () throws(OutboxError) in
            guard let removed = state.withLock({ $0.remove(id) }) else { throw .notFound }
            storage.remove(removed.item)
            // Before the next item goes: one attempt at a time. Its handler only hops back to this queue.
            removed.call?.cancel()
        }
    }

    /// Sends a dead letter again, with the same `Idempotency-Key`: after the app fixed what the server
    /// rejected, or signed in as its account.
    ///
    /// - Parameter id: The dead letter's identifier.
    /// - Throws: ``OutboxError/notFound`` when no item has it.
    public func retry(_ id: UUID) throws(OutboxError) {
        try change { () throws(OutboxError) in
            guard let item = state.withLock({ $0.revive(id) }) else { throw .notFound }
            try? storage.save(item, flushToDevice: options.flushesToDevice)
        }
    }

    /// Runs `body` on ``queue`` unless the outbox is closed; after it changed the items, tells observers
    /// the count and sends what may go now.
    private func change<T>(_ body: () throws(OutboxError) -> T) throws(OutboxError) -> T {
        try queue.sync {
            Result { () throws(OutboxError) in
                guard !state.withLock(\.stopped) else { throw .closed }
                let result = try body()
                announce()
                deliverNext()
                return result
            }
        }.get()
    }

    /// Asks for an attempt now instead of after the current wait: pull to refresh, the app coming to the
    /// foreground, a sign-in.
    public func flush() {
        queue.async {
            self.state.withLock { $0.endWait() }?.cancel()
            self.deliverNext()
        }
    }

    /// Tells `handler` every ``OutboxEvent`` on `queue`, starting with the current count.
    ///
    /// - Parameters:
    ///   - queue: Where `handler` runs; the main queue by default. A plain closure, as a layer's handlers
    ///     are: keep `.main` for main-actor code.
    ///   - handler: Receives each event, in order, on `queue` only.
    /// - Returns: The observation; keep it, and cancel it (or let it go) to stop.
    public func addObserver(
        on queue: DispatchQueue = .main, _ handler: @escaping (OutboxEvent) -> Void
    ) -> OutboxObservation {
        let id = UUID()
        let handler = UncheckedSendable(value: handler)
        // Under the lock: no event sent meanwhile is older than the count, or reaches the queue before it.
        state.withLock { state in
            state.observers[id] = (queue, handler)
            let count = state.count
            queue.async { handler.value(count) }
        }
        // The handler is released outside the lock.
        return OutboxObservation { [state] in _ = state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// Every ``OutboxEvent`` from now on, starting with the current count; ends when the task iterating
    /// it is cancelled.
    public var events: AsyncStream<OutboxEvent> {
        AsyncStream { continuation in
            // On the outbox's queue: yielding only hands the event over, and keeps the order.
            let observation = addObserver(on: queue) { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    /// Tells observers `event`, if any, then the count. Called on ``queue``, so counts reach observers in
    /// the order they changed.
    func announce(_ event: OutboxEvent? = nil) {
        state.withLock { state in
            if let event { state.send(event) }
            state.send(state.count)
        }
    }
}
