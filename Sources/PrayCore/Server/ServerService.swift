#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Starts HTTP/1.1 servers that answer every request with a plain function from a request value to
/// a response value (``ServerAPI/Handler``).
///
/// `ServerServiceMicroHTTPD` (PrayServer, Linux) runs them on libmicrohttpd; tests pass a mock.
///
/// ```swift
/// let server = try dependency.serverService().start(ServerAPI.Configuration(port: 0)) { request in
///     ServerAPI.Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
/// }
/// print("Listening on \(server.url)")
/// await server.shutdown()
/// ```
public protocol ServerService: Sendable {
    /// Starts listening and answering with `handler`, which runs on the server's threads, many at once.
    /// - Returns: The running server, listening when this returns.
    /// - Throws: ``ServerError`` when the address cannot be used or the server cannot start.
    func start(_ configuration: ServerAPI.Configuration, handler: @escaping ServerAPI.Handler) throws
        -> any RunningServer
}

/// A server that ``ServerService`` started.
public protocol RunningServer: Sendable {
    /// The address it listens on, as given (`127.0.0.1`, `::1`, `0.0.0.0`).
    var host: String { get }
    /// The port it listens on: the one chosen by the system when port 0 was asked for.
    var port: Int { get }

    /// Stops gracefully: no new connections are accepted, requests already received are answered
    /// (for at most ``ServerAPI/Configuration/drainTimeout``), then every connection is closed.
    /// Calling it again, or from several tasks, waits for the same stop.
    func shutdown() async

    /// Returns once the server has stopped, by ``shutdown()`` or otherwise.
    func waitUntilStopped() async
}

extension RunningServer {
    /// `http://host:port`, with an IPv6 host in brackets.
    public var url: URL {
        let name = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(name):\(port)") ?? URL(fileURLWithPath: "/")
    }
}

/// The answers an HTTP server gives: a plain function from a request value to a response value, run on
/// the server's threads, many at once.
///
/// `AlAdhanRoutes` (PrayServer), the AlAdhan API behind `praykit serve`, is the one PrayKit has; the
/// container gives it as ``PrayKitDependency/serverRoutes()``.
///
/// ```swift
/// let server = try dependency.serverService().start(.init(port: 8080), handler: dependency.serverRoutes().handler)
/// ```
public protocol ServerRoutes: Sendable {
    /// Answers one request. It must not block for long and must not trap on any input.
    func respond(to request: ServerAPI.Request) -> ServerAPI.Response

    /// What these routes answer from may have changed in this process: another route of the same
    /// server (the sync endpoints) has just written its store. Routes that keep event streams of it look
    /// again now rather than at their next poll. It must return at once; the default does nothing.
    func storeChanged()

    /// Ends the event streams these routes hold open (their readers reconnect, to whatever routes then
    /// answer: the routes were replaced). It must return at once; the default does nothing.
    func endStreams()
}

extension ServerRoutes {
    /// Does nothing: these routes keep no event stream of a store.
    public func storeChanged() {}

    /// Does nothing: these routes hold no event stream.
    public func endStreams() {}

    /// The routes as a ``ServerAPI/Handler`` for ``ServerService/start(_:handler:)``.
    public var handler: ServerAPI.Handler {
        { request in respond(to: request) }
    }
}

/// The request, response and configuration of ``ServerService``.
public enum ServerAPI {
    /// Answers one request. It runs on the server's threads, many at once; it must not block for long
    /// and must not trap on any input.
    public typealias Handler = @Sendable (Request) -> Response

    /// Where a server listens and the limits that protect it.
    public struct Configuration: Hashable, Sendable {
        /// The address to listen on: an IPv4 or IPv6 address (`127.0.0.1`, `0.0.0.0`, `::1`, `::`).
        public var host: String
        /// The port; 0 lets the system choose a free one (see ``RunningServer/port``).
        public var port: Int
        /// Worker threads, each polling its own connections with epoll; the number of cores by default.
        public var threads: Int
        /// The most connections open at once; more wait in the listen queue.
        public var connectionLimit: Int
        /// The most connections open at once from one client — an IPv4 address, or an IPv6 address's
        /// /64 (``addressKey(_:)``); more are closed as soon as they are accepted. 0 for no limit of its
        /// own (``connectionLimit`` still applies). Behind a proxy or a NAT every client shares the
        /// proxy's address: raise it there.
        public var connectionLimitPerAddress: Int
        /// Seconds a client may take to send a whole request, head and body, counted from the
        /// connection's opening or from the end of its previous response; it is also the longest a
        /// connection may stay idle. A slow or silent client is disconnected after that, however it
        /// trickles its bytes.
        public var requestTimeout: TimeInterval
        /// The longest request head (request line and header fields) accepted, bytes: a longer request
        /// target is refused with 414, a longer head with 431, both answered by the handler (see
        /// ``Refusal``). Each connection has a buffer of four times this; a head that outgrows even
        /// that is refused by the HTTP library itself, with its own short page.
        public var maximumRequestHeadBytes: Int
        /// The longest request body accepted, bytes. A GET or HEAD body is read and ignored; the body
        /// of another method is read whole and handed to the handler (``Request/body``). A
        /// `Content-Length` above this is refused with 413, and a chunked body that grows past it
        /// ends the connection.
        public var maximumRequestBodyBytes: Int
        /// How long ``RunningServer/shutdown()`` lets requests in progress finish, seconds.
        public var drainTimeout: TimeInterval
        /// The IP addresses of reverse proxies whose `X-Forwarded-For` the server believes: for a
        /// request from one of them, ``Request/remoteAddress`` is the last address that field lists
        /// (the one the proxy appended), so that per-address failure counts count each client, not the
        /// proxy (see ``clientAddress(peer:forwardedFor:)``). Empty by default: always the peer's.
        public var trustedProxies: [String]

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount, connectionLimit: Int = 4096,
            connectionLimitPerAddress: Int = 256, requestTimeout: TimeInterval = 15,
            maximumRequestHeadBytes: Int = 8 * 1024, maximumRequestBodyBytes: Int = 8 * 1024,
            drainTimeout: TimeInterval = 10, trustedProxies: [String] = []
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.connectionLimitPerAddress = connectionLimitPerAddress
            self.requestTimeout = requestTimeout
            self.maximumRequestHeadBytes = maximumRequestHeadBytes
            self.maximumRequestBodyBytes = maximumRequestBodyBytes
            self.drainTimeout = drainTimeout
            self.trustedProxies = trustedProxies
        }

        /// The accepted ports.
        public static let ports = 0...65_535
        /// The accepted numbers of worker threads.
        public static let threadCounts = 1...256
        /// The accepted connection limits.
        public static let connectionLimits = 1...1_000_000
        /// The accepted connection limits per address (0: none of its own).
        public static let connectionLimitsPerAddress = 0...1_000_000
        /// The accepted request head limits, bytes.
        public static let requestHeadLimits = 1024...1_048_576
        /// The accepted request body limits, bytes: up to 4 MiB, room for the sync endpoints' 2 MiB.
        public static let requestBodyLimits = 0...4_194_304
        /// The accepted request timeouts, whole seconds.
        public static let requestTimeouts = 1...3600

        /// Checks every value.
        /// - Throws: ``ServerError`` (``ServerErrorKind/invalidConfiguration``) naming the first value
        ///   out of range.
        public func validate() throws(ServerError) {
            func check(_ valid: Bool, _ message: String) throws(ServerError) {
                if !valid { throw ServerError(.invalidConfiguration, message: message) }
            }
            try check(Self.ports.contains(port), "port must be between 0 and 65535, got \(port)")
            try check(Self.threadCounts.contains(threads), "threads must be between 1 and 256, got \(threads)")
            try check(
                Self.connectionLimits.contains(connectionLimit),
                "the connection limit must be between 1 and 1000000, got \(connectionLimit)")
            try check(
                requestTimeout.isFinite
                    && (Double(Self.requestTimeouts.lowerBound)...Double(Self.requestTimeouts.upperBound))
                        .contains(requestTimeout),
                "the request timeout must be between 1 and 3600 seconds, got \(requestTimeout)")
            try check(
                Self.connectionLimitsPerAddress.contains(connectionLimitPerAddress),
                "the connection limit per address must be between 0 and 1000000, got \(connectionLimitPerAddress)")
            try check(
                Self.requestHeadLimits.contains(maximumRequestHeadBytes),
                "the request head limit must be between 1024 and 1048576 bytes, got \(maximumRequestHeadBytes)")
            try check(
                Self.requestBodyLimits.contains(maximumRequestBodyBytes),
                "the request body limit must be between 0 and 4194304 bytes, got \(maximumRequestBodyBytes)")
            try check(
                drainTimeout.isFinite && (0...3600).contains(drainTimeout),
                "the drain timeout must be between 0 and 3600 seconds, got \(drainTimeout)")
            for proxy in trustedProxies {
                try check(
                    Self.canonicalAddress(proxy) != nil,
                    "a trusted proxy must be an IP address such as 127.0.0.1 or ::1, got '\(proxy)'")
            }
        }
    }

    /// A request as the server read it.
    public struct Request: Hashable, Sendable {
        /// `GET`, `HEAD`, `POST`, …
        public var method: String
        /// The path, percent-decoded, without the query: `/v1/timings/01-03-2027`.
        public var path: String
        /// The query's arguments, percent-decoded; for a name given twice, the last value (the
        /// libmicrohttpd server refuses such a request with a 400 before any route sees it).
        public var query: Fields
        /// The header fields, names in lower case; for a name given twice, the values joined by `, `.
        public var headers: Fields
        /// Set when the server has refused the request before answering it (its framing is ambiguous,
        /// or its head or body is too large): the handler only chooses how the refusal looks. Whatever
        /// it answers, the connection closes after it, and an answer whose status is not the refusal's
        /// is replaced by the server's own plain-text refusal.
        public var refusal: Refusal?
        /// The body of a request other than GET or HEAD, as received (a chunked body de-chunked), at
        /// most ``Configuration/maximumRequestBodyBytes``; empty for GET and HEAD, whose bodies the
        /// server reads and drops, and for a refused request.
        public var body: Data
        /// The address of the client's end of the connection, as text: `127.0.0.1`, `2001:db8::7`
        /// (an IPv4 client of an IPv6 socket in its IPv4 form). Behind a proxy it is the proxy's. Empty
        /// when unknown (a request made in a test).
        public var remoteAddress: String

        /// Creates a request from its parts.
        public init(
            method: String = "GET", path: String, query: Fields = [:], headers: Fields = [:],
            refusal: Refusal? = nil, body: Data = Data(), remoteAddress: String = ""
        ) {
            var lowercased = Fields(minimumCapacity: headers.count)
            for (name, value) in headers { lowercased[name.lowercased()] = value }
            self.init(
                method: method, path: path, query: query, lowercasedHeaders: lowercased, refusal: refusal,
                body: body, remoteAddress: remoteAddress)
        }

        /// Creates a request whose header names are in lower case already (a server reading the wire).
        package init(
            method: String, path: String, query: Fields, lowercasedHeaders: Fields,
            refusal: Refusal? = nil, body: Data = Data(), remoteAddress: String = ""
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = lowercasedHeaders
            self.refusal = refusal
            self.body = body
            self.remoteAddress = remoteAddress
        }

        /// Creates a request from a request target as sent on the wire: `/v1/timings?latitude=21.4`.
        /// The path and the query are percent-decoded; `+` in the query is a space.
        public init(
            method: String = "GET", target: String, headers: Fields = [:], body: Data = Data(),
            remoteAddress: String = ""
        ) {
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var query = Fields()
            if parts.count == 2 {
                for item in parts[1].split(separator: "&") where !item.isEmpty {
                    let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = Self.decode(pair[0])
                    query[name] = pair.count == 2 ? Self.decode(pair[1]) : ""
                }
            }
            let path = parts[0].removingPercentEncodingExactly() ?? String(parts[0])
            self.init(
                method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress)
        }

        /// The value of a header field, by name in any case.
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }

        private static func decode(_ text: Substring) -> String {
            let spaced = String(text).replacing("+", with: " ")
            return spaced.removingPercentEncodingExactly() ?? spaced
        }
    }

    /// Why a server refused a request it read, for the handler to put in words: the status (400 for
    /// ambiguous framing, 413, 414, 431 for sizes) and a sentence saying what was wrong.
    ///
    /// ```swift
    /// if let refusal = request.refusal {
    ///     return ServerAPI.Response(status: refusal.status, body: Data(refusal.message.utf8))
    /// }
    /// ```
    public struct Refusal: Hashable, Sendable {
        /// The status to answer with.
        public var status: Int
        /// What was wrong, as a sentence: "The request has two Content-Length fields."
        public var message: String

        /// Creates a refusal.
        public init(status: Int, message: String) {
            self.status = status
            self.message = message
        }
    }

    /// A response: status, header fields and body.
    public struct Response: Hashable, Sendable {
        /// The status code.
        public var status: Int
        /// The header fields to send (`Content-Length` and `Date` are added by the server). A 304 gives
        /// `Content-Length` itself: the length of the 200 it stands for (RFC 9110 §8.6), which the
        /// server sends without a body.
        public var headers: Fields
        /// The body.
        public var body: Data
        /// For a response that goes on after it is queued (server-sent events): what its bytes come
        /// from, after ``body``. A server without streams sends the body alone.
        public var stream: ServerStream?

        /// Creates a response.
        public init(status: Int, headers: Fields = [:], body: Data = Data(), stream: ServerStream? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.stream = stream
        }
    }
}

/// A server that cannot start, or a configuration that cannot be used.
public typealias ServerError = PrayKitError<ServerErrorKind>

/// What kind of failure a ``ServerError`` is.
public enum ServerErrorKind: String, Hashable, Sendable {
    /// A configuration value is out of range.
    case invalidConfiguration
    /// The host is not an IP address this machine can listen on.
    case invalidAddress
    /// The server could not start: the port is in use, or the system refused.
    case startFailed
}
