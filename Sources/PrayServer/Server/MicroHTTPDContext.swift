// libmicrohttpd is a Linux dependency of PrayServer (Package.swift); elsewhere PrayServer has the
// AlAdhan routes but no server of its own.
#if canImport(CMicroHTTPD)
    import CMicroHTTPD
    import Foundation
    import PrayCore
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// What libmicrohttpd's callbacks reach: the handler, the requests in progress, and the open
    /// connections with the moment each started waiting for its next request head.
    ///
    /// The callbacks run on the daemon's worker threads, many at once; every mutable value is an
    /// `Atomic` or behind the `Mutex`.
    final class MicroHTTPDContext: Sendable {
        let handler: ServerAPI.Handler
        let log: LogManager
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
        private let connections = Mutex<[Int: Tracked]>([:])

        /// An open connection.
        private struct Tracked {
            /// Its socket, for cutting it off.
            let socket: Int32
            /// When it started waiting for a request head (monotonic nanoseconds); `nil` while a request
            /// is being answered.
            var waitingSince: UInt64?
        }

        /// A non-nil request context: libmicrohttpd calls the handler again for a request whose context
        /// is set only to deliver a body, which this server does not read.
        static var requestMarker: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

        init(handler: @escaping ServerAPI.Handler, log: LogManager, requestTimeout: TimeInterval) {
            self.handler = handler
            self.log = log
            self.requestTimeout = UInt64(requestTimeout * 1e9)
        }

        // MARK: - Requests

        /// Answers a request whose head has arrived: reads it, calls the handler and queues the response.
        func answer(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?)
            -> MHD_Result
        {
            let request = ServerAPI.Request(
                method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                query: Self.values(of: connection, kind: .GET_ARGUMENT_KIND),
                lowercasedHeaders: Self.values(of: connection, kind: .HEADER_KIND)
            )
            var response = handler(request)
            if draining.load(ordering: .relaxed) { response.headers["Connection"] = "close" }
            answered.add(1, ordering: .relaxed)
            return Self.queue(response, on: connection)
        }

        /// A request's head has arrived: it is in progress until ``completed(_:)``, and no longer subject to
        /// the request deadline.
        func began(_ connection: OpaquePointer) {
            inFlight.add(1, ordering: .relaxed)
            setWaiting(connection, since: nil)
        }

        /// A request is finished: its response was sent, or the client went away.
        func completed(_ connection: OpaquePointer?) {
            inFlight.subtract(1, ordering: .relaxed)
            if let connection { setWaiting(connection, since: Self.monotonicNanoseconds()) }
        }

        private static func queue(_ response: ServerAPI.Response, on connection: OpaquePointer) -> MHD_Result {
            let native = response.body.withUnsafeBytes { bytes in
                praykit_mhd_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let native else { return .NO }
            defer { praykit_mhd_destroy_response(native) }
            for (name, value) in response.headers {
                // A name or value with a line break is refused by libmicrohttpd; the field is left out.
                _ = praykit_mhd_add_response_header(native, name, value)
            }
            return praykit_mhd_queue_response(connection, UInt32(clamping: response.status), native)
        }

        /// The values of one kind (header fields, query arguments) of a request; header names in lower case.
        private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [String: String] {
            var values: [String: String] = [:]
            values.reserveCapacity(12)
            withUnsafeMutablePointer(to: &values) { pointer in
                _ = praykit_mhd_get_connection_values(
                    connection, kind,
                    { context, kind, key, value in
                        guard let context, let key else { return .YES }
                        let values = context.assumingMemoryBound(to: [String: String].self)
                        var name = String(cString: key)
                        let text = value.map { String(cString: $0) } ?? ""
                        if kind == .HEADER_KIND {
                            name = name.lowercased()
                            if let earlier = values.pointee[name] {
                                values.pointee[name] = earlier + ", " + text
                                return .YES
                            }
                        }
                        values.pointee[name] = text
                        return .YES
                    }, pointer)
            }
            return values
        }

        // MARK: - Connections

        /// A connection opened: it now has the request timeout to send its first request head.
        func opened(_ connection: OpaquePointer) {
            let socket = praykit_mhd_connection_socket(connection)
            let tracked = Tracked(socket: socket, waitingSince: Self.monotonicNanoseconds())
            connections.withLock { $0[Int(bitPattern: connection)] = tracked }
        }

        /// A connection is closing. libmicrohttpd calls this before it closes the socket, and the deadline
        /// sweep shuts sockets down while holding the same lock, so it never touches a socket number the
        /// system has given out again.
        func closed(_ connection: OpaquePointer) {
            _ = connections.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
        }

        private func setWaiting(_ connection: OpaquePointer, since: UInt64?) {
            connections.withLock { table in
                let key = Int(bitPattern: connection)
                if table[key] != nil { table[key]?.waitingSince = since }
            }
        }

        /// Shuts down the connections that have waited longer than the request timeout for a request head:
        /// silent clients and clients sending a byte at a time alike. libmicrohttpd then sees the socket
        /// end and closes the connection itself.
        func sweep() {
            let cut = connections.withLock { table -> Int in
                // Read under the lock: a connection that finished a request just before would otherwise have
                // a `waitingSince` later than `now`, and a wrapping difference would cut it off.
                let now = Self.monotonicNanoseconds()
                var cut = 0
                for (key, tracked) in table {
                    guard Self.isOverdue(waitingSince: tracked.waitingSince, now: now, timeout: requestTimeout) else {
                        continue
                    }
                    shutdown(tracked.socket, Int32(SHUT_RDWR))
                    table[key]?.waitingSince = nil
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
            let thread = Thread { [self] in
                let microseconds = useconds_t(max(10_000, min(1_000_000, interval * 1e6)))
                while !stopped.load(ordering: .relaxed) {
                    usleep(microseconds)
                    sweep()
                }
            }
            thread.name = "praykit-server-deadlines"
            thread.start()
        }

        static func monotonicNanoseconds() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
    }

    // MARK: - C callbacks

    extension MicroHTTPDContext {
        /// libmicrohttpd's access handler, called several times per request: first when the head has
        /// arrived, then with any body in pieces, then once more with no data. A GET or HEAD is answered
        /// on that last call (answering earlier would make libmicrohttpd close the connection, losing
        /// keep-alive); any body is read and discarded. Other methods are answered at once, without
        /// reading a body: the connection then closes.
        static let accessHandler: MHD_AccessHandlerCallback = {
            context, connection, url, method, _, _, uploadDataSize, requestContext in
            guard let context, let connection, let requestContext else { return .NO }
            let server = Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue()
            if requestContext.pointee == nil {
                requestContext.pointee = requestMarker
                server.began(connection)
                guard let method, isBodiless(method) else { return server.answer(connection, url: url, method: method) }
                return .YES
            }
            if let uploadDataSize, uploadDataSize.pointee > 0 {
                uploadDataSize.pointee = 0
                return .YES
            }
            return server.answer(connection, url: url, method: method)
        }

        /// Whether the method is GET or HEAD.
        private static func isBodiless(_ method: UnsafePointer<CChar>) -> Bool {
            strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0
        }

        /// Called when a request is finished.
        static let completedHandler: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
            guard let context, requestContext?.pointee != nil else { return }
            Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue().completed(connection)
        }

        /// Called when a connection opens or closes.
        static let connectionHandler: MHD_NotifyConnectionCallback = { context, connection, _, code in
            guard let context, let connection else { return }
            let server = Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue()
            if code == .CONNECTION_NOTIFY_STARTED { server.opened(connection) } else { server.closed(connection) }
        }

        /// Receives libmicrohttpd's own messages: what an operator must see (failures, limits reached,
        /// accept and memory problems) at `warning`; the rest (a client that closed its connection
        /// mid-request, a slow client cut off) at `info`, since clients do that all the time.
        static let logHandler: praykit_mhd_log_function = { context, message in
            guard let context, let message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            let lowered = text.lowercased()
            let serious = ["fail", "limit", "accept", "bind", "listen", "memory", "too many"]
            let level: LogLevel = serious.contains { lowered.contains($0) } ? .warning : .info
            Unmanaged<MicroHTTPDContext>.fromOpaque(context).takeUnretainedValue().log.log(
                level, "libmicrohttpd", metadata: ["server.message": text])
        }
    }
#endif
