/// What the platform's URLSession does where Linux and Apple systems differ, one named value per fact, read
/// at run time by the one place that acts on it. A session's transport keeps its own copy
/// (``SessionTransport/facts``), so a test on Linux runs a fact the Apple way wherever FoundationNetworking
/// can behave so; <doc:LinuxNotes> says which facts run both ways and why the others can't.
///
/// Measured on Linux with FoundationNetworking 6.3.1 (`../shared/DESIGN.md`, `probes/foundationnetworking/`);
/// the Apple values are Apple's documented behaviour, compiled here against FoundationNetworking
/// (`-D NETWORKLAYER_APPLE_BRANCHES`) but run only on an Apple system.
///
/// Four more facts need API that FoundationNetworking lacks, so their branches are chosen at compile time:
/// the session's waiting for connectivity and stored credentials (``PlatformSession/adapt(_:)``), the
/// system's certificate challenges (``PlatformSession/answer(_:for:task:completionHandler:)``), pausing a
/// reply by suspending its task (``BackPressureQueue``) and `F_FULLFSYNC` (`POSIX.synchronize(_:)`).
package struct PlatformFacts: Sendable, Equatable {
    /// Whether uploads go out in URLSession's own form (an upload task's file, or the bytes as `httpBody`)
    /// rather than the layer's body stream. Apple: yes, CFNetwork doesn't support `InputStream` subclasses
    /// as body streams. Linux: no, an `uploadTask(fromFile:)` whose connection drops while the file is read
    /// stops the process (`EasyHandle.swift:484`, 2 runs in 25), and the stream is 4–6× faster. Linux can
    /// send natively: `NativeUploadTests` do.
    package var sendsUploadsNatively: Bool
    /// Whether a redirect that keeps its body (307, 308; 301/302 of anything but POST) loses it. Linux: yes,
    /// libcurl re-sends it with the method but an empty body (measured); Apple: no, the body follows.
    package var losesRedirectedBodies: Bool
    /// Whether a redirect of a task the layer has stopped may be answered. Apple: yes. Linux: no, answering
    /// it stops the process (`HTTPURLProtocol.swift:705`, 3 of 3 runs; 0 of 8 once left unanswered).
    package var answersStoppedTasks: Bool
    /// Whether the session's own cookie handling is switched off and the layer sends and stores every
    /// request's cookies (``SessionCookies``). Linux: yes, FoundationNetworking parses every header line of
    /// every reply as a possible cookie (6.2–6.5% of the CPU of small GETs at 64 in flight) and ignores
    /// `set-cookie`; Apple: no, URLSession does, but for an attempt whose cookie the layer pinned.
    package var layerHandlesCookies: Bool
    /// Whether the session adds the storage's cookies to every request, replacing its own `Cookie` field.
    /// Linux: yes, FoundationNetworking always does; Apple: no, URLSession adds none when the request declines
    /// them (`httpShouldHandleCookies`) or has its own `Cookie` field, which then overrides the storage's.
    package var replacesRequestCookies: Bool
    /// Whether `setValue(_:forHTTPHeaderField:)` stores a name capitalized. Linux: yes, and it rebuilds the
    /// whole header dictionary per field, so the layer writes them in one go under those names; Apple: no,
    /// names stay as given.
    package var capitalizesHeaderNames: Bool
    /// Whether a body stream with a `Content-Length` also goes out `Transfer-Encoding: chunked` unless the
    /// request names a blank one. Linux: yes, libcurl sends both (servers refuse that) and no header for a
    /// blank value (measured); Apple: no.
    package var chunksStreamsWithLength: Bool
    /// Whether a task's `priority` is worth setting. Apple: yes, a hint to the system. Linux: no, it is stored
    /// and ignored, and its setter is a `sync` onto the session's queue, so the caller starting a request
    /// waits there behind libcurl's reads (`perf` sched switches: most of the requesting thread's waits with
    /// 1 MB replies at 64 in flight).
    package var honoursTaskPriority: Bool

    /// FoundationNetworking 6.3.1.
    package static let linux = PlatformFacts(
        sendsUploadsNatively: false, losesRedirectedBodies: true, answersStoppedTasks: false,
        layerHandlesCookies: true, replacesRequestCookies: true, capitalizesHeaderNames: true,
        chunksStreamsWithLength: true, honoursTaskPriority: false)

    /// URLSession of iOS, macOS, tvOS and watchOS.
    package static let apple = PlatformFacts(
        sendsUploadsNatively: true, losesRedirectedBodies: false, answersStoppedTasks: true,
        layerHandlesCookies: false, replacesRequestCookies: false, capitalizesHeaderNames: false,
        chunksStreamsWithLength: false, honoursTaskPriority: true)

    /// The facts of the system the layer was built for; Apple's in `NETWORKLAYER_APPLE_BRANCHES` builds.
    #if canImport(FoundationNetworking) && !NETWORKLAYER_APPLE_BRANCHES
        package static let current = linux
    #else
        package static let current = apple
    #endif
}
