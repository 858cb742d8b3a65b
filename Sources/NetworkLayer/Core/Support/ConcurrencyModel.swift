/// Where code runs, and which queue owns which state. One table, kept here and in the catalog's
/// "Errors and threading" article; change both together.
///
/// | place | what runs there | state it owns |
/// |---|---|---|
/// | the caller's queue | building the request; looking it up in a memory cache (with the cookies the session will add, for the key); creating and resuming the task | none after `send` returns |
/// | a session's delegate queue (``BackPressureQueue``, serial, a root per session: ``Queues/sessionDelegate()``, `NetworkLayer.SessionTransport.delegate`) | every session event; every stop (cancel, timeout, size limit); the deadline sweep; gathering a download's bytes; parsing a stream and decoding a typed stream's elements (`serverSentEvents(decoding:)`, `jsonLines`) as they are parsed; on Linux, storing the cookies a reply sets (``SessionCookies``) | every ``Transfer`` and its sink (a stream's parser included) |
/// | the streams' delegate queue (the same kind of root, for a second session that carries streams only) | the same, for streams: a stream held back for its consumer holds back only other streams | every stream's ``Transfer`` |
/// | libcurl's thread | reading and inflating the reply; rewinding an upload's body | nothing of the layer's but the current body stream (``BodySource``, ``Locked``) |
/// | the work queue (``Queues/work``, concurrent, `NetworkLayer.work`, a root on the system's `.userInitiated` pool) | decoding caller types of a reply, off the delegate queue and the caller's (all but a typed stream's elements, decoded on the delegate queue, above); a disk cache's lookups, and the removals an unsafe method's reply makes there (before its handler runs); a cache's `flush` completion; an `async` stream's completion; a cancel that must not wait on the delegate queue (``Transfer/stop(because:)``) | the reply, handed over once |
/// | the policy queue (concurrent, `NetworkLayer.policies`, targets the work queue) | interceptors' `adapt` and `retry`, retry waits | one ``RequestAttempts`` loop, one step at a time |
/// | the monitors' queue (serial, one per layer, `NetworkLayer.monitors`, targets the work queue) | every monitor event, in order | each request's monitor channel |
/// | the disk queue (``Queues/disk``, serial, `NetworkLayer.disk`, a root) | the queues below, one piece at a time; writing and removing an upload's temporary file (on Apple platforms, or a session that sends uploads natively) | that file |
/// | a download's disk queue (``DiskWriter``, serial, `NetworkLayer.DiskWriter`, targets the disk queue) | opening, writing and closing its partial file, then keeping it or moving it into place; its completion | the open file |
/// | the cache's serial queue (a disk cache, `NetworkLayer.ResponseCache.disk`, targets the disk queue) | reading, writing and removing entries, in order | the disk store's files (the memory index and the in-flight table are ``Locked``) |
/// | `callbackQueue` | the success, error, progress and stream event handlers; a transfer with a progress handler runs its handlers on a serial queue of its own that targets it (``ProgressReporter/queue``, `NetworkLayer.TransferCallbacks`), so no progress call overlaps or follows its completion; a stream's handlers run on a serial queue of its own that targets it (`NetworkLayer.stream`) unless it is the main queue, so its events stay in order on a concurrent one | nothing: handlers run with no lock held |
/// | the clock's timer (``DeadlineClock``, on a serial queue of its own) | one timer, armed for the earliest deadline; it hands each sweep to where its items live (a session's to the delegate queue) | the armed time and the registry (``Locked``) |
/// | the task iterating a ``NetworkStream`` | `next()` | nothing: elements wait in the stream's buffer (``Locked``) |
///
/// Execution contexts are the rows that target no other. Every queue is a root made in ``Queues`` or
/// targets one (only ``Queues`` names a global queue). Blocking work stays on serial roots: on Linux a
/// concurrent queue gets only as many threads as cores, so nothing waiting for libcurl or the disk runs
/// on the work queue.
///
/// Shared state lives in ``Locked``, whose closures never call user code, touch the disk or call into
/// URLSession; the one exception, ``BackPressureQueue``, waits on a condition to block libcurl's thread.
/// `DummyNetworkLayer`'s ``InProcessTransport`` answers on the sending thread, so interceptors, decoding
/// and delivery run there (a presenter test sees the handler before the call returns). A small GET's
/// hops, and why each: <doc:DesignNotes>.
enum ConcurrencyModel {}
