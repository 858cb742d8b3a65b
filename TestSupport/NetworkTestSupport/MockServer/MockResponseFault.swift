extension MockResponse {
    /// A way for the server to misbehave while answering one request.
    ///
    /// Hazards with URLSession on Linux (FoundationNetworking 6.3.1, libcurl):
    /// - The server never closes in the middle of the header section: that exact fault
    ///   makes FoundationNetworking stop the whole process ("Transfer completed, but
    ///   there's no response", swift-corelibs-foundation issue 5285), so no case here
    ///   produces it.
    /// - libcurl resends a request once when a *reused* keep-alive connection closes before
    ///   any byte of the reply arrives. A `disconnectAfterRequest` or `stall`-then-stop
    ///   met on a reused connection may therefore show up as two recorded requests, the
    ///   second one answered by the next scripted reply. Put such faults on the first
    ///   request of a connection to see the error.
    public enum Fault: Sendable, Equatable {
        /// Accept the next connection and close it without reading anything.
        ///
        /// Checked when a connection is accepted: if the reply at the head of the queue has
        /// this fault, it is consumed and the new connection closed. Nothing is recorded.
        /// Met by a request already read (from a handler, or on a kept-alive connection),
        /// it acts as `disconnectAfterRequest`.
        case disconnectAtStart
        /// Read and record the request, then close without writing a byte.
        case disconnectAfterRequest
        /// Send the headers with a `Content-Length` (at least 1), write the first half of
        /// the body (rounded down), then close. Overrides `chunked`. A reply that has no
        /// body (HEAD, 204, 304) is sent whole and the connection then closes. Ignored for a
        /// streamed body: a stream that ends before its `length` makes the same cut.
        case disconnectMidBody
        /// Read and record the request, then never answer: the connection stays open until
        /// the client closes it or the server stops.
        case stall
    }
}
