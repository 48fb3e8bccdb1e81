import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// What every ``NetworkService`` of PrayServices does the same way, whatever carries the bytes: the
/// checks before connecting (http or https with a host; plain http only to loopback — `localhost`
/// or an address literal in 127.0.0.0/8 or `::1` — or with the request's consent; never from https
/// down to http), redirects followed one checked hop at a time (to another origin without the
/// caller's headers but the CORS-safelisted ones), and the retry policy — idempotent requests
/// retried on connection failures, timeouts, 429 and 5xx, with exponential backoff and jitter,
/// honouring `Retry-After`, bounded in attempts and in total time, the waits going through the
/// injected ``PrayClock``.
///
/// A client supplies only ``Exchange``: one request, one response, no redirect followed
/// (`CurlTransfer` on libcurl, `URLSessionTransfer` on Foundation's URLSession).
struct HTTPClient: Sendable {
    /// One exchange: send the request to the URL and return the response as it came (a redirect
    /// included), or the failure of the exchange itself.
    typealias Exchange = @Sendable (HTTPRequest, URL, Limits) async -> Result<Outcome, Failure>

    /// What one exchange produced.
    struct Outcome: Sendable {
        var status: Int
        /// Header fields, names in lower case; repeated fields joined with `, `.
        var headers: [String: String]
        var body: Data
        var duration: TimeInterval
    }

    /// A failure of the exchange itself (no HTTP status).
    struct Failure: Error, Sendable {
        let kind: NetworkError.Kind
        /// libcurl's result code, when libcurl failed.
        var curlCode: Int?
        let message: String
    }

    /// The limits of one exchange.
    struct Limits: Sendable {
        var connectTimeout: TimeInterval
        var totalTimeout: TimeInterval
        var maxResponseBytes: Int
        var userAgent: String
        /// For a stream: no total timeout, and the exchange ends when nothing arrives for this long.
        var idleTimeout: TimeInterval?
    }

    let options: NetworkOptions
    let log: LogManager
    let clock: any PrayClock
    let exchange: Exchange

    /// Sends `request`, following redirects and retrying as the type's summary says.
    /// - Throws: ``NetworkError``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try check(request.url, request: request, from: nil)
        var attempt = 0
        var waited: TimeInterval = 0
        while true {
            attempt += 1
            let result: Result<HTTPResponse, NetworkError>
            do {
                result = .success(try await follow(request, attempts: attempt))
            } catch {
                result = .failure(error)
            }
            guard let delay = retryDelay(after: result, request: request, attempt: attempt, waited: waited) else {
                return try result.mapError { $0.after(attempts: attempt) }.get()
            }
            log.notice(
                "Request retried",
                metadata: [
                    "http.url": NetworkError.redacted(request.url), "http.attempt": "\(attempt + 1)",
                    "http.delay": delay.fixed(2), "http.reason": Self.reason(result),
                ]
            )
            waited += delay
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw NetworkError(kind: .cancelled, url: request.url, message: "cancelled", attempts: attempt)
            }
        }
    }

    /// The standard reason phrase of a status (RFC 9110 §15), for messages.
    static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
            410: "Gone", 413: "Content Too Large", 422: "Unprocessable Content", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status]
            ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "Unexpected Status")
    }
}

// MARK: - Streams

extension HTTPClient {
    /// One exchange whose body `exchange` hands on as it arrives (a stream): the URL checked as for
    /// ``send(_:)``, no redirects, no retries, no total timeout; it ends when nothing arrives for
    /// `idleTimeout` seconds.
    /// - Throws: ``NetworkError`` for a failure of the exchange; a status outside the request's
    ///   accepted ones is ``NetworkError/Kind/status``.
    func stream(
        _ request: HTTPRequest, idleTimeout: TimeInterval,
        exchange: @Sendable (HTTPRequest, URL, Limits) async -> Result<Outcome, Failure>
    ) async throws(NetworkError) -> HTTPResponse {
        try check(request.url, request: request, from: nil)
        let limits = Limits(
            connectTimeout: options.connectTimeout, totalTimeout: 0, maxResponseBytes: options.maxResponseBytes,
            userAgent: options.userAgent, idleTimeout: idleTimeout)
        switch await exchange(request, request.url, limits) {
        case .failure(let failure):
            throw NetworkError(
                kind: failure.kind, url: request.url, curlCode: failure.curlCode, message: failure.message)
        case .success(let outcome):
            guard request.acceptedStatuses.contains(outcome.status) else {
                throw NetworkError(
                    kind: .status, url: request.url, status: outcome.status,
                    message: "the server answered \(outcome.status)")
            }
            return HTTPResponse(
                status: outcome.status, headers: outcome.headers, body: outcome.body, url: request.url,
                duration: outcome.duration)
        }
    }
}

// MARK: - Helpers

extension HTTPClient {
    /// One attempt: the exchange and the redirects it leads to.
    private func follow(_ request: HTTPRequest, attempts: Int) async throws(NetworkError) -> HTTPResponse {
        let timeout = request.timeout.map { max(0.1, $0) }
        let limits = Limits(
            connectTimeout: min(options.connectTimeout, timeout ?? .infinity),
            totalTimeout: min(options.totalTimeout, timeout ?? .infinity),
            maxResponseBytes: options.maxResponseBytes, userAgent: options.userAgent, idleTimeout: nil
        )
        var current = request
        var visited: Set<String> = [request.url.absoluteString]
        for _ in 0...options.maxRedirects {
            let outcome: Outcome
            switch await exchange(current, current.url, limits) {
            case .success(let success): outcome = success
            case .failure(let failure):
                throw NetworkError(
                    kind: failure.kind, url: current.url, curlCode: failure.curlCode, message: failure.message,
                    attempts: attempts
                )
            }
            log.debug(
                "HTTP exchange",
                metadata: ["http.url": NetworkError.redacted(current.url), "http.status": "\(outcome.status)"]
            )
            if request.followsRedirects, [301, 302, 303, 307, 308].contains(outcome.status),
                let location = outcome.headers["location"]
            {
                guard let next = URL(string: location, relativeTo: current.url)?.absoluteURL else {
                    throw NetworkError(kind: .invalidURL, url: current.url, message: "a redirect to an unreadable URL")
                }
                try check(next, request: request, from: current.url)
                guard visited.insert(next.absoluteString).inserted else {
                    throw NetworkError(
                        kind: .tooManyRedirects, url: next, message: "a redirect loop", attempts: attempts)
                }
                if outcome.status == 303 || (outcome.status != 307 && outcome.status != 308 && current.method == .post)
                {
                    current.method = .get
                    current.body = nil
                }
                if !Self.sameOrigin(next, current.url) {
                    // The caller's credentials (Authorization, Cookie, an API key header) were meant for
                    // the first origin: another one gets only the CORS-safelisted headers.
                    current.headers = current.headers.filter { Self.safelistedHeaders.contains($0.key.lowercased()) }
                }
                current.url = next
                continue
            }
            guard request.acceptedStatuses.contains(outcome.status) else {
                throw NetworkError(
                    kind: .status, url: current.url, status: outcome.status, message: Self.reasonPhrase(outcome.status),
                    attempts: attempts,
                    retryAfter: outcome.headers["retry-after"].flatMap {
                        NetworkError.seconds(retryAfter: $0, now: clock.now())
                    }
                )
            }
            return HTTPResponse(
                status: outcome.status, headers: outcome.headers, body: outcome.body, url: current.url,
                duration: outcome.duration, attempts: attempts
            )
        }
        throw NetworkError(
            kind: .tooManyRedirects, url: current.url, message: "more than \(options.maxRedirects) redirects",
            attempts: attempts
        )
    }

    /// Checks a URL before connecting: http or https with a host; plain http only to loopback (or
    /// with consent); never from https down to http.
    private func check(_ url: URL, request: HTTPRequest, from previous: URL?) throws(NetworkError) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw NetworkError(
                kind: previous == nil ? .invalidURL : .unsafeRedirect, url: url,
                message: previous == nil
                    ? "only http and https URLs with a host can be fetched"
                    : "a redirect to '\(scheme ?? "")' was refused: only http and https are followed"
            )
        }
        guard scheme == "http" else { return }
        if previous?.scheme?.lowercased() == "https" {
            throw NetworkError(
                kind: .unsafeRedirect, url: url, message: "a redirect from https to plain http was refused")
        }
        guard Self.isLoopback(host: host) || request.allowsInsecureHTTP else {
            throw NetworkError(
                kind: .insecure, url: url,
                message: "plain http to \(host) was refused: beyond this machine only https is used"
            )
        }
    }

    /// Whether `host` is this machine: exactly `localhost`, or an IP literal in 127.0.0.0/8 or `::1`
    /// (bracketed or not). Decided on the literal's parsed address, never on how the name begins: a
    /// name such as `127.evil.example` is resolved by DNS and may be anywhere. A shortened or numeric
    /// IPv4 form (`127.1`, `2130706433`) is not a literal here and counts as elsewhere.
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        // Only what an address literal may hold reaches inet_pton (a NUL would end the C string early).
        guard !name.isEmpty, name.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return false }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, name, &ipv6) == 1 {
            return withUnsafeBytes(of: &ipv6) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
        }
        return false
    }

    /// The headers a redirect to another origin keeps: the CORS-safelisted request headers (Fetch
    /// standard §4.2), which carry no credentials.
    static let safelistedHeaders: Set<String> = ["accept", "accept-language", "content-language", "content-type"]

    /// Whether two URLs share scheme, host and port (RFC 6454), the default port filled in.
    static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(first) == origin(second)
    }

    /// How long to wait before trying again, or `nil` to stop.
    private func retryDelay(
        after result: Result<HTTPResponse, NetworkError>, request: HTTPRequest, attempt: Int, waited: TimeInterval
    ) -> TimeInterval? {
        let maxAttempts = min(options.maxAttempts, request.maxAttempts ?? .max)
        guard request.isRetryable, attempt < maxAttempts, case .failure(let error) = result else { return nil }
        let retryable: Bool
        switch error.kind {
        case .connection, .timeout: retryable = true
        case .status: retryable = error.status == 429 || (error.status ?? 0) >= 500
        default: retryable = false
        }
        guard retryable else { return nil }
        // Exponential backoff with "equal jitter": half fixed, half random.
        let backoff = options.baseDelay * pow(2, Double(attempt - 1))
        var delay = backoff / 2 + Double.random(in: 0...(backoff / 2))
        if let retryAfter = error.retryAfter { delay = max(delay, retryAfter) }
        guard waited + delay <= options.retryBudget else { return nil }
        return delay
    }

    private static func reason(_ result: Result<HTTPResponse, NetworkError>) -> String {
        guard case .failure(let error) = result else { return "" }
        return error.status.map { "status \($0)" } ?? error.kind.rawValue
    }
}

extension NetworkError {
    /// RFC 9110 §10.2.3: delay-seconds, or an HTTP-date (counted from `now`).
    static func seconds(retryAfter header: String, now: Date) -> TimeInterval? {
        let text = header.trimmingWhitespace()
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        guard let date = HTTPDate.date(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
