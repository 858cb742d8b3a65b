/// Where code runs, and which queue owns which state. One table, kept here and in the catalog's
/// "Errors and threading" article; change both together.
///
/// | place | what runs there | state it owns |
/// |---|---|---|
/// | the caller's queue | building the request; looking it up in a memory cache (with the cookies the session will add, for the key); creating and resuming the task | none after `send` returns |
/// | a session's delegate queue (``BackPressureQueue``, serial, a root per session: ``Queues/sessionDelegate()``, `NetworkLayer.SessionTransport.delegate`) | every session event; every stop (cancel, timeout, size limit); each layer's sweep of its idle deadlines; gathering a download's bytes; parsing a stream and decoding a typed stream's elements (`serverSentEvents(decoding:)`, `jsonLines`) as they are parsed; on Linux, storing the cookies a reply sets (``SessionCookies``) | every ``Transfer`` and its sink (a stream's parser included) |
/// | the streams' delegate queue (the same kind of root, for a second session that carries streams only) | the same, for streams: a stream held back for its consumer holds back only other streams | every stream's ``Transfer`` |
/// | libcurl's thread | reading and inflating the reply; rewinding an upload's body | nothing of the layer's but the current body stream (an upload's ``TransferBody``, ``Locked``) |
/// | the work queue (``Queues/work``, concurrent, `NetworkLayer.work`, a root on the system's `.userInitiated` pool) | decoding caller types of a reply, off the delegate queue and the caller's (all but a typed stream's elements, decoded on the delegate queue, above); a disk cache's lookups, and the removals an unsafe method's reply makes there (before its handler runs); a cache's `flush` completion; an `async` stream's completion; a cancel that must not wait on the delegate queue (``Transfer/stop(because:)``) | the reply, handed over once |
/// | the policy queue (concurrent, `NetworkLayer.policies`, targets the work queue) | interceptors' `adapt` and `retry` (not for a call that delivers immediately), retry waits | one ``RequestAttempts`` loop, one step at a time |
/// | the monitors' queue (serial, one per layer, `NetworkLayer.monitors`, targets the work queue) | every monitor event, in order | each request's monitor channel |
/// | the disk queue (``Queues/disk``, serial, `NetworkLayer.disk`, a root) | the queues below, one piece at a time; writing and removing an upload's temporary file (on Apple platforms, or a session that sends uploads natively) | that file |
/// | a download's disk queue (``DiskWriter``, serial, `NetworkLayer.DiskWriter`, targets the disk queue) | opening, writing and closing its partial file, then keeping it or moving it into place; its completion | the open file |
/// | the cache's serial queue (a disk cache, `NetworkLayer.ResponseCache.disk`, targets the disk queue) | reading, writing and removing entries, in order | the disk store's files (the memory index and the in-flight table are ``Locked``) |
/// | `callbackQueue` | the success, error, progress and stream event handlers; a transfer with a progress handler runs its handlers on a serial queue of its own that targets it (``ProgressReporter/queue``, `NetworkLayer.TransferCallbacks`), so no progress call overlaps or follows its completion; a stream's handlers run on a serial queue of its own that targets it (`NetworkLayer.stream`) unless it is the main queue, so its events stay in order on a concurrent one | nothing: handlers run with no lock held |
/// | the clock's timer (``SystemClock``, serial, `NetworkLayer.clock`, a root per clock: ``Queues/clock()``, one per layer) | one dispatch timer per clock, armed for the earliest of its timers; firing, it hands each one due to its queue (a retry's wait to the policy queue, a progress delivery to the transfer's callback queue, a layer's sweep of its transfers' idle deadlines, ``DeadlineRegistry``, to that session's delegate queue) and runs the policy stage's sweep itself (an interceptor's or a refresh's wait, a request's total deadline) | the armed timers (``Locked``) |
/// | the task iterating a ``NetworkStream`` | `next()` | nothing: elements wait in the stream's buffer (``Locked``) |
///
/// The execution contexts are the rows that don't target another: the caller's queue, the delegate
/// queues (one root per session), libcurl's thread, the work queue, the disk queue, `callbackQueue`, the
/// clocks' timers (one root per clock) and the task iterating a stream. Every queue the library makes is
/// a root made in ``Queues``, or targets one; only ``Queues`` names a global queue. Blocking work stays on serial
/// roots: on Linux a concurrent queue gets only as many threads as there are cores, so a delegate queue
/// waiting for libcurl, or the disk, must never run on the work queue.
///
/// State that several places really share (the session delegate's task table, a deadline
/// registry, a request's outcome latch and its attempts' failures, its metrics, a token authenticator's
/// token, the layer's running requests, a stream's delivery counts and its state across reconnections)
/// is kept in one small wrapper, ``Locked``, whose closures never call user code, never touch the disk
/// and never call into URLSession. One exception, documented where it lives: ``BackPressureQueue`` waits
/// on a condition (it must block libcurl's thread). An upload's body stream reads the disk on libcurl's
/// thread, its one client, and shares only its counts and status, through ``Locked``.
///
/// Hops a small GET takes, with the contract that needs each: caller → libcurl (the request goes out),
/// libcurl → delegate queue (FoundationNetworking's; three operations per delegate-driven task),
/// delegate queue → work queue (only for caller types: decoding off the delegate and caller queues),
/// → `callbackQueue` (the handler's queue). Replies the layer decodes itself (`Data`, `String`,
/// `EmptyResponse`) decode in place on the delegate queue. The clock's one timer does not run per request
/// (see ``SystemClock`` and ``DeadlineRegistry``).
///
/// A call that delivers immediately (``NetworkLayer/deliversImmediately``, every `async` form) skips the
/// policy queue and `callbackQueue`: interceptors, decoding and its handler run where each step is
/// settled, except on a session's delegate queue or the disk queue (``Queues/isReserved``), which they
/// leave for the work queue. `DummyNetworkLayer` is such a layer over an ``InProcessTransport`` (its
/// ``InProcessResponder``), which answers on the thread that sends the attempt, so a presenter test sees
/// the handler run before the call returns.
enum ConcurrencyModel {}
