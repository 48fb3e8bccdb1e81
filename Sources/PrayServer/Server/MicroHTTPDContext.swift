// libmicrohttpd is a Linux dependency of PrayServer (Package.swift); elsewhere PrayServer has the
// AlAdhan routes but no server of its own.
#if canImport(CMicroHTTPD)
    internal import CMicroHTTPD
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// What libmicrohttpd's callbacks reach: the handler, the requests in progress, and the open
    /// connections with the moment each started waiting for its next request.
    ///
    /// The callbacks run on the daemon's worker threads, many at once; every mutable value is an
    /// `Atomic` or behind the `Mutex`.
    ///
    /// Before a request is answered its head is checked here, in the server layer, whatever the
    /// handler: a request target or head over the limit (414, 431), a body declared over the limit
    /// (413), and framing that a proxy in front could read otherwise — two `Content-Length` fields,
    /// `Transfer-Encoding` with `Content-Length` or other than `chunked`, a field name with a space
    /// before its colon, an HTTP/1.1 request without one `Host` — (400) are refused, through the
    /// handler (``ServerAPI/Request/refusal``), and the connection is closed (RFC 9112 §6.3, §3.2).
    ///
    /// Every answer carries `X-Content-Type-Options: nosniff`. Connections are counted per client
    /// address key (an IPv4 address, an IPv6 /64: ``ServerConnectionCounts``) and what clients cause
    /// is logged at most once a minute per kind and address (``ServerLogThrottle``).
    final class MicroHTTPDContext: Sendable {
        let handler: ServerAPI.Handler
        let log: LogManager
        /// The configuration, for the trusted proxies that decide a client's address.
        let configuration: ServerAPI.Configuration
        /// Requests presented to the handler whose response has not finished (sent or abandoned).
        let inFlight = Atomic<Int>(0)
        /// Requests answered since the start.
        let answered = Atomic<Int>(0)
        /// Connections cut off for taking longer than the request timeout.
        let cutOff = Atomic<Int>(0)
        /// Set when a graceful stop begins: responses then ask clients to close the connection.
        let draining = Atomic<Bool>(false)
        /// Set when the daemon has stopped; the deadline thread then ends.
        let stopped = Atomic<Bool>(false)
        private let requestTimeout: UInt64
        /// The longest request head and body accepted, bytes.
        let maximumHeadBytes: Int
        let maximumBodyBytes: Int
        private let connections = Mutex<[Int: Tracked]>([:])
        /// The connections open per client address key, for the limit per address.
        let connectionCounts: ServerConnectionCounts
        /// How often what clients cause is logged.
        let throttle: ServerLogThrottle
        /// The bodies being received, by connection (one request at a time per connection): bytes of
        /// requests other than GET and HEAD, kept until the request is answered or abandoned.
        private let bodies = Mutex<[Int: Data]>([:])
        /// How many bodies `bodies` holds: while none, a request (every GET) skips its lock. A
        /// connection's body is added on the thread that later takes it, so a count of zero read there
        /// means that connection has none.
        private let bodyCount = Atomic<Int>(0)

        /// An open connection. The table holds it for the deadline sweep; libmicrohttpd's socket context
        /// holds it too (retained), so that a request reaches its connection's clock without a lock.
        private final class Tracked: Sendable {
            /// Its socket, for cutting it off.
            let socket: Int32
            /// When it started waiting for its next request, head and body (monotonic nanoseconds); 0
            /// from the moment a request is answered until its response is sent.
            let waitingSince: Atomic<UInt64>
            /// Its client's address key in ``MicroHTTPDContext/connectionCounts``.
            let addressKey: String

            init(socket: Int32, waitingSince: UInt64, addressKey: String) {
                self.socket = socket
                self.waitingSince = Atomic(waitingSince)
                self.addressKey = addressKey
            }
        }

        init(
            configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler, log: LogManager,
            clock: any PrayClock
        ) {
            self.handler = handler
            self.log = log
            self.configuration = configuration
            connectionCounts = ServerConnectionCounts(limit: configuration.connectionLimitPerAddress)
            throttle = ServerLogThrottle(clock: clock)
            requestTimeout = UInt64(configuration.requestTimeout * 1e9)
            maximumHeadBytes = configuration.maximumRequestHeadBytes
            maximumBodyBytes = configuration.maximumRequestBodyBytes
        }

        // MARK: - Requests

        /// Answers a request that has arrived whole (or is refused): stops the connection's deadline until
        /// the response is sent, reads the request, calls the handler, and queues the response.
        func answer(
            _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
            refusal: ServerAPI.Refusal? = nil
        ) -> MHD_Result {
            // The request has arrived whole: its deadline ends here. The time the handler takes is not
            // the client's (a push waiting for a database lock must not be cut off by the sweep).
            setWaiting(connection, since: nil)
            let method = method.map { String(cString: $0) } ?? "GET"
            let path = url.map { String(cString: $0) } ?? "/"
            let body = takeBody(of: connection)
            let remoteAddress = Self.clientAddress(of: connection)
            var refusal = refusal
            var query = ServerAPI.Fields()
            if refusal == nil {
                let arguments = Self.values(of: connection, kind: .GET_ARGUMENT_KIND)
                query = arguments.values
                // `latitude=21&latitude=50` asks two things at once: answering one of them would be a
                // plausible, wrong answer to the other.
                if let name = arguments.repeated {
                    refusal = ServerAPI.Refusal(
                        status: 400,
                        message:
                            "The query gives '\(String(name.prefix(40)).escapingControlCharacters())' more than once; "
                            + "give each parameter once.")
                }
            }
            var response: ServerAPI.Response
            if let refusal {
                // The query, the fields and the body are what may be wrong: the handler gets none of them.
                let request = ServerAPI.Request(
                    method: method, path: path, query: [:], lowercasedHeaders: [:], refusal: refusal,
                    remoteAddress: remoteAddress)
                response = handler(request)
                if response.status != refusal.status { response = Self.plainRefusal(refusal) }
                response.headers["Connection"] = "close"
                if let suppressed = throttle.admit("refused \(refusal.status)", address: remoteAddress) {
                    log.info(
                        "Request refused",
                        metadata: [
                            "http.status": "\(refusal.status)", "http.reason": refusal.message,
                            "log.suppressed": "\(suppressed)",
                        ])
                }
            } else {
                let headers = Self.values(of: connection, kind: .HEADER_KIND).values
                let request = ServerAPI.Request(
                    method: method, path: path, query: query,
                    lowercasedHeaders: headers, body: body,
                    remoteAddress: configuration.clientAddress(
                        peer: remoteAddress, forwardedFor: headers["x-forwarded-for"]))
                response = handler(request)
            }
            if draining.load(ordering: .relaxed) { response.headers["Connection"] = "close" }
            answered.add(1, ordering: .relaxed)
            if let stream = response.stream { return queue(stream, of: response, on: connection) }
            return Self.queue(response, on: connection)
        }

        // MARK: - Streams

        /// The event streams sent now, so that a stop can end them: libmicrohttpd must not stop with a
        /// connection suspended.
        private let streams = Mutex<[MHDStreamWriter]>([])

        /// Queues a response that goes on (``ServerAPI/Response/stream``): its body first, then what the
        /// stream's holder writes, chunked, the connection suspended while there is nothing to send.
        private func queue(_ stream: ServerStream, of response: ServerAPI.Response, on connection: OpaquePointer)
            -> MHD_Result
        {
            guard let writer = MHDStreamWriter(capacity: stream.capacity) else { return .NO }
            var headers = response.headers
            for (name, value) in Self.commonHeaders where headers[name] == nil { headers[name] = value }
            for (name, value) in headers {
                _ = name.withCString { name in value.withCString { value in writer.header(name, value) } }
            }
            if !response.body.isEmpty { _ = writer.write(response.body) }
            if draining.load(ordering: .relaxed) { writer.end() }
            streams.withLock { streams in
                streams.removeAll { $0.isClosed }
                streams.append(writer)
            }
            let queued = writer.queue(on: connection, status: response.status)
            stream.attach(writer)
            return queued
        }

        /// Ends every event stream, so that their connections finish (a stop begins), and waits up to
        /// `seconds` for libmicrohttpd to be done with them (it must not stop with one suspended).
        func endStreams(waiting seconds: TimeInterval) {
            let open = streams.withLock { streams in
                defer { streams = [] }
                return streams
            }
            for writer in open { writer.end() }
            let deadline = Self.monotonicNanoseconds() + UInt64(max(0, seconds) * 1e9)
            while open.contains(where: { !$0.isClosed }), Self.monotonicNanoseconds() < deadline { usleep(1000) }
        }

        /// The server's own words for a refusal the handler did not answer with its status.
        static func plainRefusal(_ refusal: ServerAPI.Refusal) -> ServerAPI.Response {
            ServerAPI.Response(
                status: refusal.status, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data((refusal.message + "\n").utf8))
        }

        /// A request's head has arrived: it is in progress until ``completed(_:)``. Its deadline runs on
        /// until the request (head and body) is answered.
        func began(_ connection: OpaquePointer) {
            inFlight.add(1, ordering: .relaxed)
        }

        /// Why a request whose head has arrived is refused before it is answered, or `nil`: its size
        /// (414, 431, 413) or ambiguous framing (400). See the type's documentation.
        func refusal(
            of connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
            state: UInt
        ) -> ServerAPI.Refusal? {
            var head = praykit_mhd_head()
            praykit_mhd_read_head(connection, &head)
            let targetLength = praykit_mhd_state_target_length(state)
            let lineBytes = (method.map { strlen($0) } ?? 0) + targetLength + (version.map { strlen($0) } ?? 0) + 4
            if let refusal = Self.refusal(
                head: head, lineBytes: lineBytes, targetLength: targetLength,
                isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false, maximumHeadBytes: maximumHeadBytes,
                maximumBodyBytes: maximumBodyBytes)
            {
                return refusal
            }
            return Self.targetRefusal(
                nul: praykit_mhd_state_target_nul(state) != 0,
                tooManyParameters: praykit_mhd_state_too_many_parameters(state) != 0)
        }

        /// The refusal of a target whose text libmicrohttpd cannot hand over whole, or `nil`: an encoded
        /// NUL (`%00`) would end the value or the path it is in, silently (`latitude=21%00abc` read as
        /// 21), and a query of more than `PRAYKIT_MHD_MAXIMUM_PARAMETERS` parameters was emptied before
        /// it was parsed.
        static func targetRefusal(nul: Bool, tooManyParameters: Bool) -> ServerAPI.Refusal? {
            if tooManyParameters {
                return ServerAPI.Refusal(
                    status: 400,
                    message: "The request has more than \(PRAYKIT_MHD_MAXIMUM_PARAMETERS) query parameters; "
                        + "send only those the route reads.")
            }
            if nul {
                return ServerAPI.Refusal(
                    status: 400, message: "The request target holds an encoded NUL (%00), which no path or value may.")
            }
            return nil
        }

        /// The refusal for a head read by `praykit_mhd_read_head`, or `nil`.
        private static func refusal(
            head: praykit_mhd_head, lineBytes: Int, targetLength: Int, isHTTP10: Bool, maximumHeadBytes: Int,
            maximumBodyBytes: Int
        ) -> ServerAPI.Refusal? {
            if targetLength > maximumHeadBytes {
                return ServerAPI.Refusal(
                    status: 414,
                    message:
                        "The request target is \(targetLength) bytes; this server accepts at most \(maximumHeadBytes).")
            }
            let headBytes = lineBytes + head.field_bytes + 2
            if headBytes > maximumHeadBytes {
                return ServerAPI.Refusal(
                    status: 431,
                    message:
                        "The request head is about \(headBytes) bytes; this server accepts at most \(maximumHeadBytes)."
                )
            }
            func ambiguous(_ message: String) -> ServerAPI.Refusal { ServerAPI.Refusal(status: 400, message: message) }
            if head.malformed_names > 0 {
                return ambiguous("A header field name is empty or has a space before its colon.")
            }
            if head.content_length_fields > 1 {
                return ambiguous("The request has \(head.content_length_fields) Content-Length fields; send one.")
            }
            if head.transfer_encoding_fields > 0, head.content_length_fields > 0 {
                return ambiguous("The request has both Transfer-Encoding and Content-Length; send one.")
            }
            if head.transfer_encoding_fields > 1 || (head.transfer_encoding_fields == 1 && head.chunked == 0) {
                return ambiguous("The request's Transfer-Encoding must be chunked, alone.")
            }
            if head.host_fields > 1 { return ambiguous("The request has \(head.host_fields) Host fields; send one.") }
            if head.host_fields == 0, !isHTTP10 { return ambiguous("An HTTP/1.1 request needs a Host field.") }
            if head.content_length > UInt64(maximumBodyBytes) {
                return ServerAPI.Refusal(
                    status: 413,
                    message: "The request body is \(head.content_length) bytes; this server accepts at most "
                        + "\(maximumBodyBytes).")
            }
            return nil
        }

        /// A request is finished: its response was sent, or the client went away (then what it had sent
        /// of its body is dropped).
        func completed(_ connection: OpaquePointer?) {
            inFlight.subtract(1, ordering: .relaxed)
            guard let connection else { return }
            _ = takeBody(of: connection)
            setWaiting(connection, since: Self.monotonicNanoseconds())
        }

        // MARK: - Bodies

        /// Adds a piece of a request's body, as libmicrohttpd hands it over (de-chunked).
        func appendBody(_ bytes: UnsafePointer<CChar>, count: Int, of connection: OpaquePointer) {
            bodies.withLock { bodies in
                let key = Int(bitPattern: connection)
                if bodies[key] == nil { bodyCount.add(1, ordering: .relaxed) }
                bodies[key, default: Data()].append(
                    UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
            }
        }

        /// The body received for the connection's request, which is no longer kept; empty when none.
        private func takeBody(of connection: OpaquePointer) -> Data {
            guard bodyCount.load(ordering: .relaxed) > 0 else { return Data() }
            return bodies.withLock { bodies in
                guard let body = bodies.removeValue(forKey: Int(bitPattern: connection)) else { return nil }
                bodyCount.subtract(1, ordering: .relaxed)
                return body
            } ?? Data()
        }

        /// A socket address as text (empty for another family).
        private static func text(of address: UnsafePointer<sockaddr>?) -> String {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                guard let base = buffer.baseAddress else { return "" }
                base.initialize(repeating: 0, count: buffer.count)
                guard praykit_mhd_address_text(address, base, buffer.count) == 0 else { return "" }
                return String(cString: base)
            }
        }

        /// The client's address, as text (empty when libmicrohttpd does not know it).
        private static func clientAddress(of connection: OpaquePointer) -> String {
            // INET6_ADDRSTRLEN (46) bytes hold any IPv6 address as text; on the stack, as every request
            // asks.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                guard let base = buffer.baseAddress else { return "" }
                base.initialize(repeating: 0, count: buffer.count)
                guard praykit_mhd_client_address(connection, base, buffer.count) == 0 else { return "" }
                return String(cString: base)
            }
        }

        /// The header fields every answer carries: `nosniff`, so that a browser never reads a JSON or
        /// plain-text answer as HTML or script.
        static let commonHeaders: ServerAPI.Fields = ["X-Content-Type-Options": "nosniff"]

        private static func queue(_ response: ServerAPI.Response, on connection: OpaquePointer) -> MHD_Result {
            // A 304 carries no body, and its Content-Length is the 200's (``ServerAPI/Response/headers``),
            // or none would be better than libmicrohttpd's 0: the size of a body never sent makes it.
            let notModifiedLength =
                response.status == 304 ? response.headers["Content-Length"].flatMap { UInt64($0) } : nil
            let native =
                notModifiedLength.map { praykit_mhd_create_response_without_content($0) }
                ?? response.body.withUnsafeBytes { bytes in
                    praykit_mhd_create_response_from_buffer(
                        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
                }
            guard let native else { return .NO }
            defer { praykit_mhd_destroy_response(native) }
            for (name, value) in response.headers where notModifiedLength == nil || name != "Content-Length" {
                // A name or value with a line break is refused by libmicrohttpd; the field is left out.
                // `withCString` lends the text in place (an implicit conversion copies it to an array).
                _ = name.withCString { name in
                    value.withCString { value in praykit_mhd_add_response_header(native, name, value) }
                }
            }
            // The common fields the response does not set itself, added to libmicrohttpd's response alone
            // (comparing the names as ASCII: Foundation's case-insensitive compare and a copy of the
            // fields were a twentieth of the server's time a request).
            for (name, value) in commonHeaders where !response.headers.contains(where: { sameASCII($0.key, name) }) {
                _ = name.withCString { name in
                    value.withCString { value in praykit_mhd_add_response_header(native, name, value) }
                }
            }
            return praykit_mhd_queue_response(connection, UInt32(clamping: response.status), native)
        }

        /// Whether two header names are the same, letters compared in any case (names are ASCII).
        static func sameASCII(_ first: String, _ second: String) -> Bool {
            guard first.utf8.count == second.utf8.count else { return false }
            return zip(first.utf8, second.utf8).allSatisfy { a, b in
                a == b || (a | 0x20 == b | 0x20 && (97...122).contains(a | 0x20))
            }
        }

        /// The values of one kind (header fields, query arguments) of a request; header names in lower case.
        private static func values(
            of connection: OpaquePointer, kind: MHD_ValueKind
        ) -> (values: ServerAPI.Fields, repeated: String?) {
            // Counted first (libmicrohttpd counts without a callback): room for them all, or nothing made
            // for none.
            let count = Int(praykit_mhd_get_connection_values(connection, kind, nil, nil))
            guard count > 0 else { return ([:], nil) }
            var collector = FieldCollector(capacity: count, joinsRepeats: kind == .HEADER_KIND)
            withUnsafeMutablePointer(to: &collector) { pointer in
                _ = praykit_mhd_get_connection_values(
                    connection, kind,
                    { context, kind, key, value in
                        guard let context, let key else { return .YES }
                        let collector = context.assumingMemoryBound(to: FieldCollector.self)
                        let name = String(cString: key)
                        collector.pointee.add(
                            kind == .HEADER_KIND ? name.lowercased() : name,
                            value.map { String(cString: $0) } ?? "")
                        return .YES
                    }, pointer)
            }
            return (collector.fields, collector.repeated)
        }

        // MARK: - Connections

        /// Whether a connection just accepted from `address` is taken: its client (address key) has
        /// fewer than the limit open. libmicrohttpd closes the others before reading anything.
        func admits(_ address: UnsafePointer<sockaddr>?) -> Bool {
            guard connectionCounts.limit > 0 else { return true }
            return connectionCounts.admits(Self.text(of: address))
        }

        /// A connection opened: it now has the request timeout to send its first request head. It is
        /// counted for its client; one over the limit (two accepted at once) is shut down at once.
        func opened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
            let socket = praykit_mhd_connection_socket(connection)
            let (key, withinLimit) = connectionCounts.opened(Self.clientAddress(of: connection))
            let tracked = Tracked(socket: socket, waitingSince: Self.monotonicNanoseconds(), addressKey: key)
            socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
            connections.withLock { $0[Int(bitPattern: connection)] = tracked }
            if !withinLimit, socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        }

        /// A connection is closing. libmicrohttpd calls this before it closes the socket, and the deadline
        /// sweep shuts sockets down while holding the same lock, so it never touches a socket number the
        /// system has given out again.
        func closed(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
            _ = connections.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
            if let tracked = socketContext.pointee {
                socketContext.pointee = nil
                let unmanaged = Unmanaged<Tracked>.fromOpaque(tracked)
                connectionCounts.closed(unmanaged.takeUnretainedValue().addressKey)
                unmanaged.release()
            }
            _ = takeBody(of: connection)
        }

        /// Starts (a time) or stops (`nil`) the connection's wait for its next request. Every request
        /// does this twice, on the worker threads, so it takes no lock: the connection is found through
        /// libmicrohttpd's socket context and its clock is an atomic.
        private func setWaiting(_ connection: OpaquePointer, since: UInt64?) {
            guard let tracked = praykit_mhd_socket_context(connection) else { return }
            Unmanaged<Tracked>.fromOpaque(tracked).takeUnretainedValue().waitingSince.store(
                since ?? 0, ordering: .relaxed)
        }

        /// Shuts down the connections that have waited longer than the request timeout for a whole request,
        /// head and body: silent clients and clients sending a byte at a time alike. libmicrohttpd then
        /// sees the socket end and closes the connection itself.
        func sweep() {
            let cut = connections.withLock { table -> Int in
                let now = Self.monotonicNanoseconds()
                var cut = 0
                for tracked in table.values {
                    let since = tracked.waitingSince.load(ordering: .relaxed)
                    // A connection that finished a request just after `now` was read has a start later
                    // than `now`: not overdue.
                    guard Self.isOverdue(waitingSince: since == 0 ? nil : since, now: now, timeout: requestTimeout)
                    else { continue }
                    // Only if it is still waiting since then: a request answered meanwhile keeps it.
                    guard
                        tracked.waitingSince.compareExchange(expected: since, desired: 0, ordering: .relaxed).exchanged
                    else { continue }
                    shutdown(tracked.socket, Int32(SHUT_RDWR))
                    cut += 1
                }
                return cut
            }
            if cut > 0 {
                cutOff.add(cut, ordering: .relaxed)
                log.debug("Slow clients disconnected", metadata: ["server.connections": "\(cut)"])
            }
        }

        /// Whether a connection waiting since `waitingSince` (monotonic nanoseconds; `nil` while a request
        /// is being answered) has waited longer than `timeout` at `now`. A start later than `now` (read on
        /// another thread a moment before) is not overdue.
        static func isOverdue(waitingSince: UInt64?, now: UInt64, timeout: UInt64) -> Bool {
            guard let since = waitingSince, now > since else { return false }
            return now - since > timeout
        }

        /// Sweeps every `interval` seconds on a thread of its own until the daemon stops.
        func startDeadlines(interval: TimeInterval) {
            DetachedThread.start(name: "praykit-server-deadlines") { [self] in
                let microseconds = useconds_t(max(10_000, min(1_000_000, interval * 1e6)))
                while !stopped.load(ordering: .relaxed) {
                    usleep(microseconds)
                    sweep()
                }
            }
        }

        static func monotonicNanoseconds() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
    }

    /// An event stream's C side (`praykit_mhd_stream`): bytes kept for libmicrohttpd's content reader,
    /// which suspends the connection while there are none. `@unchecked Sendable`: the C stream is
    /// thread-safe, and the pointer is released once, when the last holder lets go.
    final class MHDStreamWriter: ServerStream.Writer, @unchecked Sendable {
        private let native: OpaquePointer

        init?(capacity: Int) {
            guard let native = praykit_mhd_stream_create(capacity) else { return nil }
            self.native = native
        }

        deinit { praykit_mhd_stream_release(native) }

        func header(_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>) -> Bool {
            praykit_mhd_stream_header(native, name, value) == .YES
        }

        func queue(on connection: OpaquePointer, status: Int) -> MHD_Result {
            praykit_mhd_stream_queue(native, connection, UInt32(clamping: status))
        }

        func write(_ bytes: Data) -> Bool {
            bytes.withUnsafeBytes { praykit_mhd_stream_write(native, $0.baseAddress, $0.count) } == 0
        }

        func end() { praykit_mhd_stream_end(native) }

        var isClosed: Bool { praykit_mhd_stream_closed(native) != 0 }
    }

    // MARK: - C callbacks

    extension MicroHTTPDContext {
        /// libmicrohttpd's access handler, called several times per request: first when the head has
        /// arrived, then with any body in pieces, then once more with no data. The head is checked on
        /// the first call, and a refused request is answered then (libmicrohttpd then reads no body and
        /// closes the connection). Every other request is answered on the last call, once its body has
        /// been read (answering earlier would make libmicrohttpd close the connection, losing
        /// keep-alive): the body of a GET or HEAD is discarded, that of another method is kept for the
        /// handler (``ServerAPI/Request/body``), and a chunked body that grows past the limit ends the
        /// connection.
        ///
        /// The request's state lives in its context pointer (see `praykit_mhd_state_line`); the body
        /// being kept, in `bodies`.
        static let accessHandler: MHD_AccessHandlerCallback = {
            context, connection, url, method, version, uploadData, uploadDataSize, requestContext in
            guard let context, let connection, let requestContext else { return .NO }
            let server = Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue()
            let state = UInt(bitPattern: requestContext.pointee)
            if praykit_mhd_state_began(state) == 0 {
                requestContext.pointee = UnsafeMutableRawPointer(bitPattern: praykit_mhd_state_begin(state))
                server.began(connection)
                if let refusal = server.refusal(of: connection, method: method, version: version, state: state) {
                    return server.answer(connection, url: url, method: method, refusal: refusal)
                }
                return .YES
            }
            if let uploadDataSize, uploadDataSize.pointee > 0 {
                let received = praykit_mhd_state_add_body(state, uploadDataSize.pointee)
                guard praykit_mhd_state_body(received) <= server.maximumBodyBytes else {
                    if let suppressed = server.throttle.admit(
                        "body over the limit", address: clientAddress(of: connection))
                    {
                        server.log.info(
                            "Request body over the limit",
                            metadata: ["http.limit": "\(server.maximumBodyBytes)", "log.suppressed": "\(suppressed)"])
                    }
                    return .NO
                }
                requestContext.pointee = UnsafeMutableRawPointer(bitPattern: received)
                if let uploadData, let method, !isBodiless(method) {
                    server.appendBody(uploadData, count: uploadDataSize.pointee, of: connection)
                }
                uploadDataSize.pointee = 0
                return .YES
            }
            return server.answer(connection, url: url, method: method)
        }

        /// Whether the method is GET or HEAD.
        private static func isBodiless(_ method: UnsafePointer<CChar>) -> Bool {
            strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0
        }

        /// Called when a request is finished, or abandoned; only those the handler began count.
        static let completedHandler: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
            guard let context, praykit_mhd_state_began(UInt(bitPattern: requestContext?.pointee)) != 0 else { return }
            Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue().completed(connection)
        }

        /// Called when a connection has been accepted, before libmicrohttpd takes it: `NO` closes it.
        static let acceptHandler: MHD_AcceptPolicyCallback = { context, address, _ in
            guard let context else { return .YES }
            return Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue().admits(address) ? .YES : .NO
        }

        /// Called when a connection opens or closes.
        static let connectionHandler: MHD_NotifyConnectionCallback = { context, connection, socketContext, code in
            guard let context, let connection, let socketContext else { return }
            let server = Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue()
            if code == .CONNECTION_NOTIFY_STARTED {
                server.opened(connection, socketContext: socketContext)
            } else {
                server.closed(connection, socketContext: socketContext)
            }
        }

        /// Receives libmicrohttpd's own messages: what an operator must see (failures, limits reached,
        /// accept and memory problems) at `warning`; the rest (a client that closed its connection
        /// mid-request, a slow client cut off) at `info`, since clients do that all the time. A request
        /// libmicrohttpd refuses itself (a head beyond its buffer, a malformed line) is one `info` line
        /// with the status, without the HTML page it sends. Clients cause most of these (a malformed
        /// `Content-Length` is a "failure" in its words), so each kind is logged at most once a minute
        /// (``ServerLogThrottle``; libmicrohttpd names no address, so the kind alone is counted), the
        /// next line saying how many were left out.
        static let logHandler: praykit_mhd_log_function = { context, message in
            guard let context, let message else { return }
            let text = String(cString: message).trimmingWhitespaceAndNewlines()
            let server = Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue()
            let log = server.log
            if let status = refusedStatus(text) {
                guard let suppressed = server.throttle.admit("libmicrohttpd refused \(status)", address: "") else {
                    return
                }
                log.info(
                    "Request refused by libmicrohttpd",
                    metadata: ["http.status": "\(status)", "log.suppressed": "\(suppressed)"])
                return
            }
            guard let suppressed = server.throttle.admit("libmicrohttpd " + messageKind(text), address: "") else {
                return
            }
            let lowered = text.lowercased()
            let serious = ["fail", "limit", "accept", "bind", "listen", "memory", "too many"]
            let level: LogLevel = serious.contains { lowered.contains($0) } ? .warning : .info
            log.log(level, "libmicrohttpd", metadata: ["server.message": text, "log.suppressed": "\(suppressed)"])
        }

        /// The kind of a libmicrohttpd message: its words before the first quote, parenthesis, colon or
        /// digit (what it fills in: a URL, an error text, a count), at most 80 characters.
        static func messageKind(_ message: String) -> String {
            let stops: Set<Character> = ["`", "'", "\"", "(", ":", "%"]
            let words = message.prefix { !stops.contains($0) && !$0.isNumber }
            return String(words.trimmingWhitespace().prefix(80))
        }

        /// The status of libmicrohttpd's "Error processing request (HTTP response code is 431 ('<html>…'))"
        /// message, or `nil` for another message.
        static func refusedStatus(_ message: String) -> Int? {
            let prefix = "Error processing request (HTTP response code is "
            guard message.hasPrefix(prefix) else { return nil }
            return Int(message.dropFirst(prefix.count).prefix { $0.isNumber })
        }
    }
#endif
