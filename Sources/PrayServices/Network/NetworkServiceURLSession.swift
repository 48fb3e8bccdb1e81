// Only where libcurl is not linked: see URLSessionTransfer.swift.
#if !canImport(CCurl)
    import Foundation
    import PrayCore

    /// ``NetworkService`` on Foundation's URLSession, where PrayServices does not link libcurl (iOS,
    /// watchOS, tvOS, visionOS, macOS; on Linux, `Scripts/portable-build.sh` builds and tests it on
    /// FoundationNetworking). The same contract as `NetworkServiceCurl`, through the same code: only
    /// http and https, plain http only to loopback hosts (or with the request's consent), redirects
    /// followed one checked hop at a time, a response size limit, TLS verification left on,
    /// cancellation of the Swift task stopping the transfer; idempotent requests retried on
    /// connection failures, timeouts, 429 and 5xx, with exponential backoff and jitter, honouring
    /// `Retry-After`, bounded in attempts and in total time, the waits going through the injected
    /// ``PrayClock``.
    ///
    /// Where URLSession differs: it has no separate connect timeout (connecting counts against
    /// ``NetworkOptions/totalTimeout``, which also bounds each wait for data); the encodings it accepts
    /// and decodes are its own; errors carry no libcurl code (``NetworkError/curlCode`` is `nil`) and say
    /// the `URLError` code in their message instead; and on Apple platforms App Transport Security may
    /// refuse plain http that the request allows, unless the app's `Info.plist` permits it.
    ///
    /// ```swift
    /// let network = NetworkServiceURLSession(log: .silent)
    /// let response = try await network.send(HTTPRequest(url: URL(string: "https://api.aladhan.com/v1/status")!))
    /// ```
    public struct NetworkServiceURLSession: NetworkService {
        private let client: HTTPClient

        /// Creates the service with the limits and retry policy of `options` (all but
        /// ``NetworkOptions/connectTimeout``, see above), logging retries at `notice` and each exchange
        /// at `debug`, and waiting between attempts on `clock`.
        public init(
            options: NetworkOptions = NetworkOptions(), log: LogManager, clock: any PrayClock = PrayClockSystem()
        ) {
            client = HTTPClient(options: options, log: log, clock: clock, exchange: URLSessionTransfer.perform)
        }
    }

    extension NetworkServiceURLSession {
        /// Sends `request` through URLSession, with the checks, redirects and retries of the type's
        /// summary; throws ``NetworkError``.
        public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            try await client.send(request)
        }
    }
#endif
