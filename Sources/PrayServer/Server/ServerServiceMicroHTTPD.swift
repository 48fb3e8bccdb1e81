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

    /// ``ServerService`` on the system libmicrohttpd: HTTP/1.1 with keep-alive, a pool of worker threads
    /// (one per core by default) each polling its connections with epoll, limits on the request head and
    /// body and on open connections (in all and per address), one deadline for each request's head and
    /// body so that slow clients cannot hold connections (slowloris, slow bodies), requests with
    /// ambiguous framing refused before they are answered (request smuggling), and a graceful stop that
    /// lets requests in progress finish. Refusals reach the handler as ``ServerAPI/Request/refusal``, so
    /// that they are answered in the handler's own format. Every answer carries
    /// `X-Content-Type-Options: nosniff`; connections are limited per client, an IPv6 client counted by
    /// its /64; what clients cause is logged at most once a minute per kind and address.
    ///
    /// The handler runs on the worker threads and answers synchronously: a request costs no thread hop.
    ///
    /// ```swift
    /// let service = ServerServiceMicroHTTPD(log: log)
    /// let server = try service.start(ServerAPI.Configuration(port: 0)) { _ in ServerAPI.Response(status: 204) }
    /// print(server.url)            // http://127.0.0.1:40123
    /// await server.shutdown()
    /// ```
    public struct ServerServiceMicroHTTPD: ServerService {
        private let log: LogManager
        private let clock: any PrayClock

        /// Creates the service.
        /// - Parameters:
        ///   - log: The logger: start and stop at `notice`, libmicrohttpd's own messages at `warning`,
        ///     slow clients cut off at `debug`; what clients cause at most once a minute per kind and
        ///     address.
        ///   - clock: The clock those minutes are counted on; the system's by default.
        public init(log: LogManager, clock: any PrayClock = PrayClockSystem()) {
            self.log = log
            self.clock = clock
        }
    }

    extension ServerServiceMicroHTTPD {
        /// Starts a server listening on the configuration's host and port.
        /// - Throws: ``ServerError``.
        public func start(
            _ configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler
        ) throws -> any RunningServer {
            try MicroHTTPDServer(configuration: configuration, handler: handler, log: log, clock: clock)
        }
    }
#endif
