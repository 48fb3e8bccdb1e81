// libcurl is a Linux dependency of PrayServices (Package.swift); elsewhere the container uses
// NetworkServiceURLSession.
#if canImport(CCurl)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PrayCore

    /// ``NetworkService`` on the system libcurl: one easy handle per exchange on its own thread, TLS
    /// peer and host verification on, only http and https, plain http only to loopback hosts (or with
    /// the request's consent), redirects followed one checked hop at a time, connect and total
    /// timeouts, a response size limit, gzip accepted, and cancellation of the Swift task stopping the
    /// transfer. Linux only (libcurl is loaded with `dlopen` on first use).
    ///
    /// Idempotent requests are retried on connection failures, timeouts, 429 and 5xx, with exponential
    /// backoff and jitter, honouring `Retry-After`, bounded in attempts and in total time. The waits
    /// between attempts go through the injected ``PrayClock`` (tests pass one that does not wait).
    ///
    /// ```swift
    /// let network = NetworkServiceCurl(log: .silent)
    /// let response = try await network.send(HTTPRequest(url: URL(string: "https://api.aladhan.com/v1/status")!))
    /// ```
    public struct NetworkServiceCurl: NetworkService {
        private let client: HTTPClient

        /// Creates the service.
        /// - Parameters:
        ///   - options: Limits and retry policy.
        ///   - log: The logger: retries at `notice`, each exchange at `debug`.
        ///   - clock: Waits between attempts, and "now" for a `Retry-After` given as a date.
        public init(
            options: NetworkOptions = NetworkOptions(), log: LogManager, clock: any PrayClock = PrayClockSystem()
        ) {
            client = HTTPClient(options: options, log: log, clock: clock) { request, url, limits in
                await CurlTransfer.perform(request, url: url, limits: limits)
            }
        }
    }

    extension NetworkServiceCurl {
        /// Sends `request`.
        /// - Throws: ``NetworkError``.
        public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            try await client.send(request)
        }

        /// libcurl streams.
        public var supportsStreams: Bool { true }

        /// Sends `request` and hands the body to `receive` as it arrives.
        /// - Throws: ``NetworkError``.
        public func stream(
            _ request: HTTPRequest, idleTimeout: TimeInterval, receive: @escaping @Sendable (Data) -> Bool
        ) async throws -> HTTPResponse {
            try await client.stream(request, idleTimeout: idleTimeout) { request, url, limits in
                await CurlTransfer.perform(request, url: url, limits: limits, receive: receive)
            }
        }
    }
#endif
