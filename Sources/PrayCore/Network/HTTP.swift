#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An HTTP method.
public enum HTTPMethod: String, CaseIterable, Codable, Hashable, Sendable {
    /// GET.
    case get = "GET"
    /// HEAD.
    case head = "HEAD"
    /// POST.
    case post = "POST"
    /// PUT.
    case put = "PUT"
    /// DELETE.
    case delete = "DELETE"
    /// OPTIONS.
    case options = "OPTIONS"

    /// Whether repeating the request has no further effect (RFC 9110 §9.2.2), so it may be retried.
    public var isIdempotent: Bool { self != .post }
}

/// A request for ``NetworkService/send(_:)``.
///
/// ```swift
/// let request = HTTPRequest(url: URL(string: "https://api.aladhan.com/v1/calendar/2026/11")!)
/// ```
public struct HTTPRequest: Hashable, Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The URL: `https`, or `http` to a loopback host or with ``allowsInsecureHTTP``.
    public var url: URL
    /// Header fields to send.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// Whether plain `http` may be used with a host that is not loopback.
    public var allowsInsecureHTTP: Bool
    /// The statuses that count as success; any other is a ``NetworkError``.
    public var acceptedStatuses: Range<Int>
    /// Whether the request may be sent again after a failure; by default, when its method is idempotent.
    public var isRetryable: Bool
    /// Whether redirects are followed; when not, a redirect is an answer like any other (a ``NetworkError``
    /// of kind `status` unless accepted). Requests that carry a credential (sync's) follow none.
    public var followsRedirects: Bool
    /// The longest this request may take, each attempt, seconds; `nil` for the service's limits. A
    /// shorter limit (a sync tried after a write, which must never hold the person up) also bounds
    /// connecting.
    public var timeout: TimeInterval?
    /// The most attempts, when fewer than the service's.
    public var maxAttempts: Int?

    /// Creates a request.
    public init(
        method: HTTPMethod = .get, url: URL, headers: [String: String] = [:], body: Data? = nil,
        allowsInsecureHTTP: Bool = false, acceptedStatuses: Range<Int> = 200..<300, isRetryable: Bool? = nil,
        followsRedirects: Bool = true, timeout: TimeInterval? = nil, maxAttempts: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.acceptedStatuses = acceptedStatuses
        self.isRetryable = isRetryable ?? method.isIdempotent
        self.followsRedirects = followsRedirects
        self.timeout = timeout
        self.maxAttempts = maxAttempts
    }
}

/// A response from ``NetworkService/send(_:)``.
public struct HTTPResponse: Hashable, Sendable {
    /// The status code.
    public let status: Int
    /// The header fields, names in lower case.
    public let headers: [String: String]
    /// The body, decompressed.
    public let body: Data
    /// The URL after redirects.
    public let url: URL
    /// How long the last attempt took, seconds.
    public let duration: TimeInterval
    /// How many attempts it took (1 when the first succeeded).
    public let attempts: Int

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data, url: URL, duration: TimeInterval, attempts: Int = 1)
    {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.duration = duration
        self.attempts = attempts
    }
}

/// Sends HTTP requests.
public protocol NetworkService: Sendable {
    /// Sends `request`, retrying idempotent ones on connection failures, timeouts, 429 and 5xx.
    /// - Returns: The response, whose status is one of the request's accepted statuses.
    /// - Throws: ``NetworkError``; `CancellationError` never — a cancelled task gets
    ///   ``NetworkError/Kind/cancelled``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Whether ``stream(_:idleTimeout:receive:)`` works: `false` unless the service says otherwise.
    var supportsStreams: Bool { get }

    /// Sends `request` and hands each piece of the response body to `receive` as it arrives (server-sent
    /// events); `receive` returns `false` to stop. No retries, no redirects, no total timeout: the
    /// exchange ends when the server ends it, `receive` stops it, the task is cancelled, or nothing
    /// arrives for `idleTimeout` seconds (``NetworkError/Kind/timeout``).
    /// - Returns: The response, its body only the first bytes.
    /// - Throws: ``NetworkError``; `other` from a service that cannot stream.
    func stream(_ request: HTTPRequest, idleTimeout: TimeInterval, receive: @escaping @Sendable (Data) -> Bool)
        async throws -> HTTPResponse
}

extension NetworkService {
    /// No streams, unless the service has them.
    public var supportsStreams: Bool { false }

    /// Refuses: this service cannot stream.
    /// - Throws: ``NetworkError`` `other`.
    public func stream(
        _ request: HTTPRequest, idleTimeout: TimeInterval, receive: @escaping @Sendable (Data) -> Bool
    ) async throws -> HTTPResponse {
        throw NetworkError(kind: .other, url: request.url, message: "this network service cannot stream responses")
    }
}

/// The limits and retry policy of a ``NetworkService``: timeouts, the largest response, redirects,
/// attempts and backoff, and the `User-Agent`. A plain value, so that a container's configuration can
/// carry it whatever client implements the service.
///
/// ```swift
/// var options = NetworkOptions()
/// options.totalTimeout = 10
/// ```
public struct NetworkOptions: Hashable, Sendable {
    /// Seconds allowed to connect.
    public var connectTimeout: TimeInterval = 10
    /// Seconds allowed for one whole exchange.
    public var totalTimeout: TimeInterval = 30
    /// The largest response body accepted, bytes (after decompression).
    public var maxResponseBytes = 16 * 1024 * 1024
    /// The most redirects followed.
    public var maxRedirects = 5
    /// The most attempts of a retryable request.
    public var maxAttempts = 4
    /// The longest time spent waiting between attempts, seconds.
    public var retryBudget: TimeInterval = 30
    /// The first backoff, seconds; it doubles each attempt, with jitter.
    public var baseDelay: TimeInterval = 0.5
    /// The `User-Agent` sent.
    public var userAgent = "PrayKit/\(PrayKitInfo.version) (praykit)"

    /// The defaults.
    public init() {}
}

/// A failed transfer: what failed, where (with credentials removed from the URL) and what to do.
public struct NetworkError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is.
    public enum Kind: String, Equatable, Hashable, Sendable {
        /// The URL cannot be used (not http or https, or no host).
        case invalidURL
        /// Plain http to a host that is not loopback, without consent.
        case insecure
        /// The server could not be reached, or the connection broke.
        case connection
        /// The server did not answer in time.
        case timeout
        /// The response is larger than the limit.
        case tooLarge
        /// Too many redirects, or a redirect loop.
        case tooManyRedirects
        /// A redirect to a scheme other than http(s), or from https to http.
        case unsafeRedirect
        /// The server answered with a status the request does not accept.
        case status
        /// The task was cancelled.
        case cancelled
        /// Anything else libcurl reported.
        case other
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The URL, with any user, password and secret query values replaced by `***`.
    public let url: String
    /// The HTTP status, when there was a response.
    public let status: Int?
    /// libcurl's result code, when libcurl failed.
    public let curlCode: Int?
    /// A sentence that says what failed.
    public let message: String
    /// How many attempts were made.
    public let attempts: Int
    /// The wait the server asked for (`Retry-After`), seconds.
    public let retryAfter: TimeInterval?

    /// Creates an error; `url` is redacted here.
    public init(
        kind: Kind, url: URL, status: Int? = nil, curlCode: Int? = nil, message: String, attempts: Int = 1,
        retryAfter: TimeInterval? = nil
    ) {
        self.kind = kind
        self.url = Self.redacted(url)
        self.status = status
        self.curlCode = curlCode
        self.message = message
        self.attempts = attempts
        self.retryAfter = retryAfter
    }

    /// This error after `attempts` attempts.
    public func after(attempts: Int) -> NetworkError {
        NetworkError(
            kind: kind, redactedURL: url, status: status, curlCode: curlCode, message: message, attempts: attempts,
            retryAfter: retryAfter
        )
    }

    private init(
        kind: Kind, redactedURL: String, status: Int?, curlCode: Int?, message: String, attempts: Int,
        retryAfter: TimeInterval?
    ) {
        self.kind = kind
        self.url = redactedURL
        self.status = status
        self.curlCode = curlCode
        self.message = message
        self.attempts = attempts
        self.retryAfter = retryAfter
    }

    /// The sentence of ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// A sentence for people: what failed, where, and what to try.
    public var description: String {
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        switch kind {
        case .invalidURL, .insecure, .unsafeRedirect: return "\(message) (\(url))"
        case .status:
            let wait = retryAfter.map { " (it asked to retry after \(Int($0.rounded(.up))) s)" } ?? ""
            return "\(url) answered \(status.map(String.init) ?? "?") \(message)\(tries)\(wait)"
        case .cancelled: return "the request to \(url) was cancelled"
        default: return "\(message)\(tries) (\(url))"
        }
    }

    /// `url` with its user, password and the values of query items that look secret (key, token,
    /// secret, password, signature, auth) replaced by `***`.
    public static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "(unreadable URL)"
        }
        if components.user != nil { components.user = "***" }
        if components.password != nil { components.password = "***" }
        components.queryItems = components.queryItems?.map { item in
            let name = item.name.lowercased()
            let secret = ["key", "token", "secret", "password", "signature", "auth"].contains { name.contains($0) }
            return secret ? URLQueryItem(name: item.name, value: "***") : item
        }
        return components.string ?? "(unreadable URL)"
    }
}
