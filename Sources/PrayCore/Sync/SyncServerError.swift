#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a sync server refuses a request (SYNC.md §3): the HTTP status, the protocol's error code, a
/// sentence, and what the code needs (`lastMutationID` with `mutation_gap`, `serverTime` with
/// `clock_ahead`, seconds to wait with `rate_limited`). The message never holds a token or a code.
///
/// ```swift
/// do {
///     _ = try store.push(request, from: device, now: now)
/// } catch let error as SyncServerError where error.code == .mutationGap {
///     print(error.lastMutationID ?? 0)   // where the client must start again
/// }
/// ```
public struct SyncServerError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The protocol's error codes, each with its HTTP status.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// 400: a malformed request.
        case badRequest = "bad_request"
        /// 401: no, an unknown, a malformed or a revoked token; or a pairing code that is wrong,
        /// expired or used.
        case unauthorized
        /// 403: the client ID belongs to another device.
        case forbidden
        /// 404: no such route, user or device.
        case notFound = "not_found"
        /// 404: no such space, or the user is not a member of it (the two answer alike).
        case notAMember = "not_a_member"
        /// 403: the user's role in the space does not allow it (a viewer writing, an editor deleting).
        case readOnly = "read_only"
        /// 405: a method the route does not take.
        case methodNotAllowed = "method_not_allowed"
        /// 409: a mutation ID past the next one; carries `lastMutationID`.
        case mutationGap = "mutation_gap"
        /// 409: a stamp more than 5 minutes ahead of the server's clock; carries `serverTime`.
        case clockAhead = "clock_ahead"
        /// 409: a known mutation ID with another payload.
        case clientIDConflict = "client_id_conflict"
        /// 409: a user of that name exists already (administration).
        case userExists = "user_exists"
        /// 409: another space is published at that address (its slug).
        case slugTaken = "slug_taken"
        /// 410: a cursor this store did not give (another server, or a store restored from a backup).
        case cursorExpired = "cursor_expired"
        /// 413: a body, a push or a user's rows beyond the limits.
        case tooLarge = "too_large"
        /// 426: a client schema or protocol newer than the server's.
        case upgradeRequired = "upgrade_required"
        /// 429: too many requests or failures; carries `retryAfter`.
        case rateLimited = "rate_limited"
        /// 500: the server failed.
        case `internal`
        /// 503: the store is busy or unreachable for now; carries `retryAfter`.
        case unavailable

        /// The HTTP status of the code.
        public var status: Int {
            switch self {
            case .badRequest: 400
            case .unauthorized: 401
            case .forbidden, .readOnly: 403
            case .notFound, .notAMember: 404
            case .methodNotAllowed: 405
            case .mutationGap, .clockAhead, .clientIDConflict, .userExists, .slugTaken: 409
            case .cursorExpired: 410
            case .tooLarge: 413
            case .upgradeRequired: 426
            case .rateLimited: 429
            case .internal: 500
            case .unavailable: 503
            }
        }

        /// The wire form: `mutation_gap`.
        public var description: String { rawValue }
    }

    /// The error code.
    public let code: Code
    /// A sentence a person can act on; never a token or a pairing code.
    public let message: String
    /// With ``Code/mutationGap``: the last mutation of the client the server has.
    public let lastMutationID: Int?
    /// With ``Code/clockAhead``: the server's clock, ISO 8601 UTC with milliseconds.
    public let serverTime: String?
    /// With ``Code/rateLimited`` and ``Code/unavailable``: whole seconds to wait (`Retry-After`).
    public let retryAfter: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The error code; the status follows from it.
    ///   - message: What failed and what to do.
    ///   - lastMutationID: With `mutation_gap`.
    ///   - serverTime: With `clock_ahead`.
    ///   - retryAfter: With `rate_limited` and `unavailable`, seconds (at least 1).
    public init(
        _ code: Code, message: String, lastMutationID: Int? = nil, serverTime: String? = nil, retryAfter: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.lastMutationID = lastMutationID
        self.serverTime = serverTime
        self.retryAfter = retryAfter.map { max(1, $0) }
    }

    /// The HTTP status.
    public var status: Int { code.status }

    /// The body a server sends: `{"error", "message", …}`.
    public var body: SyncAPI.ErrorBody {
        SyncAPI.ErrorBody(
            error: code.rawValue, message: message, lastMutationID: lastMutationID, serverTime: serverTime)
    }

    /// `mutation_gap: …`.
    public var description: String { "\(code.rawValue): \(message)" }
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}
