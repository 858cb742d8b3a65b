/// Where code runs, and which queue owns which state. One table, kept here and in the catalog's
/// "Errors and threading" article; change both together.
///
/// | place | what runs there | state it owns |
/// |---|---|---|
/// | the caller's queue | building the request; looking it up in a memory cache (with the cookies the session will add, for the key); creating and resuming the task | none after `send` returns |
/// | the session's delegate queue (``BackPressureQueue``, serial, `NetworkLayer.SessionTransport.delegate`) | every session event; every stop (cancel, timeout, size limit); the deadline sweep; gathering a download's bytes; parsing a stream and decoding a typed stream's elements (`serverSentEvents(decoding:)`, `jsonLines`) as they are parsed; on Linux, storing the cookies a reply sets (``SessionCookies``) | every ``Transfer`` and its sink (a stream's parser included) |
/// | the streams' delegate queue (a second session, for streams only) | the same, for streams: a stream held back for its consumer holds back only other streams | every stream's ``Transfer`` |
/// | libcurl's thread | reading and inflating the reply; rewinding an upload's body | nothing of the layer's but the current body stream (``BodySource``, ``Locked``) |
/// | the policy queue (concurrent, `NetworkLayer.policies`) | interceptors' `adapt` and `retry`, retry waits | one ``RequestAttempts`` loop, one step at a time |
/// | a global queue | decoding caller types of a reply (never on the delegate queue, never on the caller's; a typed stream's elements are decoded where they are parsed, above); a disk cache's lookups, and the removals an unsafe method's reply makes there (before its handler runs); on Apple platforms, writing and removing a multipart upload's temporary file | the reply, handed over once; that file |
/// | a download's disk queue (``DiskWriter``, serial, `NetworkLayer.DiskWriter`) | opening, writing and closing its partial file, then keeping it or moving it into place; its completion | the open file |
/// | the cache's serial queue (a disk cache, `NetworkLayer.ResponseCache.disk`) | writing and removing entries, in order | the disk store's files (the memory index and the in-flight table are ``Locked``) |
/// | the monitors' queue (serial, one per layer, `NetworkLayer.monitors`) | every monitor event, in order | each request's monitor channel |
/// | `callbackQueue` | the success, error, progress and stream event handlers; a transfer with a progress handler runs its handlers on a serial queue of its own that targets it (``ProgressReporter/queue``, `NetworkLayer.TransferCallbacks`), so no progress call overlaps or follows its completion; a stream's handlers run on a serial queue of its own that targets it (`NetworkLayer.stream`) unless it is the main queue, so its events stay in order on a concurrent one | nothing: handlers run with no lock held |
/// | the clocks' timer queues (``SystemClock``, serial, `NetworkLayer.clock`: one per layer, and one for a token authenticator no layer was given) | one dispatch timer each, armed for the earliest of the clock's timers; firing, it runs the timers due: a retry's wait and a progress delivery go on to their queues, a layer's deadline sweep of its transfers on a session (``DeadlineRegistry``) to that session's delegate queue, and the policy stage's sweep runs there (an interceptor's or a refresh's wait, a request's total deadline) | the armed timers (``Locked``) |
/// | the task iterating a ``NetworkStream`` | `next()` | nothing: elements wait in the stream's buffer (``Locked``) |
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
/// delegate queue → global queue (only for caller types: decoding off the delegate and caller queues),
/// → `callbackQueue` (the handler's queue). Replies the layer decodes itself (`Data`, `String`,
/// `EmptyResponse`) decode in place on the delegate queue. The clock's one dispatch timer does not
/// run per request (see ``SystemClock`` and ``DeadlineRegistry``).
///
/// `DummyNetworkLayer` runs the same pipeline over an ``InProcessTransport``, which answers on the thread
/// that sends the attempt: interceptors, decoding and delivery then run there too (``CallbackDelivery``
/// runs a handler in place while the caller is still inside the request method), so a presenter test sees
/// the handler run before the call returns.
enum ConcurrencyModel {}
