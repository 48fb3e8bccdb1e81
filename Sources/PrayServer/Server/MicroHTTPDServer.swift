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

    /// A libmicrohttpd daemon started by ``ServerServiceMicroHTTPD``.
    final class MicroHTTPDServer: RunningServer {
        let host: String
        let port: Int
        private let context: MicroHTTPDContext
        private let daemon: NativeDaemon
        private let drainTimeout: TimeInterval
        private let state = Mutex(State())

        private enum Phase {
            case running
            case stopping
            case stopped
        }

        private struct State {
            var phase = Phase.running
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        init(
            configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler, log: LogManager,
            clock: any PrayClock
        ) throws(ServerError) {
            try configuration.validate()
            let context = MicroHTTPDContext(configuration: configuration, handler: handler, log: log, clock: clock)
            daemon = try NativeDaemon(configuration: configuration, context: context)
            self.context = context
            host = configuration.host
            port = daemon.port
            drainTimeout = configuration.drainTimeout
            context.startDeadlines(interval: configuration.requestTimeout / 4)
            log.notice(
                "Server started",
                metadata: [
                    "server.host": host, "server.port": "\(port)", "server.threads": "\(configuration.threads)",
                    "server.connectionLimit": "\(configuration.connectionLimit)",
                    "server.connectionLimitPerAddress": "\(configuration.connectionLimitPerAddress)",
                ])
        }

        deinit {
            // Released without a shutdown: stop at once (not from a worker thread: none holds this object).
            if state.withLock({ $0.phase }) != .stopped {
                // libmicrohttpd must not stop with a connection suspended: end the event streams first.
                context.endStreams(waiting: 1)
                daemon.stop()
                context.stopped.store(true, ordering: .relaxed)
            }
        }

        func shutdown() async {
            let stopsHere = state.withLock { state in
                guard state.phase == .running else { return false }
                state.phase = .stopping
                return true
            }
            if stopsHere {
                // Quiescing and joining the worker threads block: a thread of its own, not the
                // cooperative pool's.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    DetachedThread.start(name: "praykit-server-stop") { [self] in
                        drainAndStop()
                        continuation.resume()
                    }
                }
                let waiters = state.withLock { state in
                    state.phase = .stopped
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in waiters { waiter.resume() }
            }
            await waitUntilStopped()
        }

        func waitUntilStopped() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stopped = state.withLock { state in
                    if state.phase == .stopped { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if stopped { continuation.resume() }
            }
        }

        /// Stops accepting, waits for the requests in progress (up to the drain timeout), then stops the
        /// daemon, which closes the idle connections.
        private func drainAndStop() {
            context.draining.store(true, ordering: .relaxed)
            daemon.quiesce()
            // An event stream never finishes by itself: end them, so that their connections finish.
            context.endStreams(waiting: drainTimeout)
            let inFlight = context.inFlight.load(ordering: .relaxed)
            context.log.notice("Server draining", metadata: ["server.inFlight": "\(inFlight)"])
            let deadline = MicroHTTPDContext.monotonicNanoseconds() + UInt64(drainTimeout * 1e9)
            while context.inFlight.load(ordering: .relaxed) > 0, MicroHTTPDContext.monotonicNanoseconds() < deadline {
                usleep(1000)
            }
            let abandoned = max(0, context.inFlight.load(ordering: .relaxed))
            daemon.stop()
            context.stopped.store(true, ordering: .relaxed)
            context.log.notice(
                "Server stopped",
                metadata: [
                    "server.answered": "\(context.answered.load(ordering: .relaxed))",
                    "server.abandoned": "\(abandoned)",
                    "server.slowClientsCutOff": "\(context.cutOff.load(ordering: .relaxed))",
                    "server.logLinesSuppressed": "\(context.throttle.totalSuppressed)",
                ])
        }
    }

    /// The daemon and the C memory it reads: the settings, the listening address and a retained
    /// reference to the context. `@unchecked Sendable` because it holds raw pointers; they are written
    /// once, before the daemon starts, and freed once, after it has stopped, and ``MicroHTTPDServer``
    /// calls ``quiesce()`` and ``stop()`` from one thread at a time.
    private final class NativeDaemon: @unchecked Sendable {
        let port: Int
        private var daemon: OpaquePointer?
        private var listenSocket: Int32 = -1
        private let settings: UnsafeMutablePointer<praykit_mhd_settings>
        private let address: UnsafeMutablePointer<sockaddr_storage>
        private let context: Unmanaged<MicroHTTPDContext>

        init(configuration: ServerAPI.Configuration, context: MicroHTTPDContext) throws(ServerError) {
            // libmicrohttpd is loaded now, on the first server, not at every command's start.
            var error = [CChar](repeating: 0, count: 512)
            guard praykit_mhd_load(&error, error.count) == 0 else {
                throw ServerError(
                    .startFailed,
                    message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            address = .allocate(capacity: 1)
            address.initialize(to: sockaddr_storage())
            settings = .allocate(capacity: 1)
            settings.initialize(to: praykit_mhd_settings())
            self.context = Unmanaged.passRetained(context)
            let isIPv6: Bool
            do {
                isIPv6 = try Self.fill(address, host: configuration.host, port: configuration.port)
            } catch {
                Self.free(address, settings, self.context)
                throw error
            }
            let opaque = self.context.toOpaque()
            settings.pointee.address = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr.self)
            settings.pointee.thread_pool_size = UInt32(configuration.threads)
            settings.pointee.connection_limit = UInt32(configuration.connectionLimit)
            // The limit per address is the context's (an IPv6 client counted by its /64), through the
            // accept callback, not libmicrohttpd's (which counts each IPv6 address apart).
            settings.pointee.per_address_connection_limit = 0
            settings.pointee.accept = MicroHTTPDContext.acceptHandler
            settings.pointee.accept_context = opaque
            // libmicrohttpd's idle timeout is whole seconds; the deadline sweep enforces the exact one.
            settings.pointee.connection_timeout = UInt32(configuration.requestTimeout.rounded(.up)) + 1
            // The pool holds the request head, its parsed fields and the response head. Four times the
            // head limit, so that a head over the limit still reaches the server's own check (414/431 in
            // the handler's words) unless it is more than about three times too long; libmicrohttpd
            // refuses those itself, with its own page (it has no hook there).
            settings.pointee.connection_memory_limit = configuration.maximumRequestHeadBytes * 4
            settings.pointee.listen_backlog = 511
            settings.pointee.completed = MicroHTTPDContext.completedHandler
            settings.pointee.completed_context = opaque
            settings.pointee.notify_connection = MicroHTTPDContext.connectionHandler
            settings.pointee.notify_connection_context = opaque
            settings.pointee.log = MicroHTTPDContext.logHandler
            settings.pointee.log_context = opaque
            // Suspend and resume, for the event streams (their connections hold no thread while idle).
            var flags =
                MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
                | MHD_USE_SUSPEND_RESUME.rawValue
            #if os(Linux)
                flags |= MHD_USE_EPOLL.rawValue
            #else
                flags |= MHD_USE_AUTO.rawValue
            #endif
            if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            daemon = praykit_mhd_start_daemon(
                flags, UInt16(configuration.port), MicroHTTPDContext.accessHandler, opaque, settings)
            guard let daemon else {
                let reason = errno == EADDRINUSE ? "the port is in use" : String(cString: strerror(errno))
                Self.free(address, settings, self.context)
                throw ServerError(
                    .startFailed,
                    message: "cannot listen on \(configuration.host) port \(configuration.port): \(reason)")
            }
            port = Int(praykit_mhd_bound_port(daemon))
        }

        deinit {
            stop()
            Self.free(address, settings, context)
        }

        /// Stops accepting connections; the listening socket is closed after ``stop()``.
        func quiesce() {
            guard let daemon, listenSocket < 0 else { return }
            listenSocket = praykit_mhd_quiesce_daemon(daemon)
        }

        /// Stops the daemon: closes every connection and joins the worker threads. Calling it again does
        /// nothing.
        func stop() {
            guard let daemon else { return }
            praykit_mhd_stop_daemon(daemon)
            self.daemon = nil
            if listenSocket >= 0 {
                close(listenSocket)
                listenSocket = -1
            }
        }

        private static func free(
            _ address: UnsafeMutablePointer<sockaddr_storage>, _ settings: UnsafeMutablePointer<praykit_mhd_settings>,
            _ context: Unmanaged<MicroHTTPDContext>
        ) {
            address.deallocate()
            settings.deallocate()
            context.release()
        }

        /// Writes the socket address of `host` (an IPv4 or IPv6 address, or `localhost`) and `port`.
        /// - Returns: Whether it is IPv6.
        /// - Throws: ``ServerError`` (``ServerErrorKind/invalidAddress``) for anything else.
        private static func fill(
            _ storage: UnsafeMutablePointer<sockaddr_storage>, host: String, port: Int
        ) throws(ServerError) -> Bool {
            let name = host == "localhost" ? "127.0.0.1" : host
            let bytes = UnsafeMutableRawPointer(storage)
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = in_port_t(UInt16(port).bigEndian)
                bytes.storeBytes(of: v4, as: sockaddr_in.self)
                return false
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = in_port_t(UInt16(port).bigEndian)
                bytes.storeBytes(of: v6, as: sockaddr_in6.self)
                return true
            }
            throw ServerError(
                .invalidAddress,
                message: "'\(host)' is not an IP address to listen on; use 127.0.0.1, 0.0.0.0, ::1 or ::")
        }
    }
#endif
