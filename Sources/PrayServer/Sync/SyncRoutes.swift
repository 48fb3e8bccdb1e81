import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sync endpoints of `praykit serve` (SYNC.md §3) as a plain function from a request and its
/// body to a response: `POST /sync/v1/devices` pairs a device with a one-time code, `POST
/// /sync/v1/push` and `POST /sync/v1/pull` move rows for the device of the bearer token, and `POST
/// /sync/v1/devices/retire` retires that device (its logout: the token stops working); the routes
/// under `/sync/v1/spaces` (protocol 2) list, create and delete spaces, manage their members and
/// invitations, and redeem an invitation (`docs/sync-protocol.md`).
///
/// The user always comes from the token (`Authorization: Bearer pkd_…`, never from the body or
/// the URL). Bodies are UTF-8 JSON of at most ``SyncAPI/maximumBodyBytes``, unknown fields ignored.
/// Every answer is JSON with `Cache-Control: no-store` and no CORS header; a refusal is
/// `{"error", "message", …}` (``SyncAPI/ErrorBody``), with `Retry-After` on 429 and 503. Each request
/// is logged with its device ID, never with a token or a code.
///
/// ```swift
/// let routes = SyncRoutes(store: SyncStoreSQLite(path: path, log: log), clock: PrayClockSystem(), log: log)
/// let response = routes.respond(to: request, body: body, remoteAddress: "192.0.2.7")
/// ```
public struct SyncRoutes: Sendable {
    private let store: any SyncStore
    private let clock: any PrayClock
    private let log: LogManager
    private let limiter: SyncRequestLimiter
    private let events: SyncEvents

    /// The paths this answers.
    public static let paths: Set<String> = Set(
        [
            "/sync/v1/devices", "/sync/v1/devices/retire", "/sync/v1/push", "/sync/v1/pull", "/sync/v1/spaces",
            "/sync/v1/events",
        ]
            + SpaceRoute.allCases.map { "/sync/v1/spaces/" + $0.rawValue })

    /// The routes under `/sync/v1/spaces/`, by their last word.
    enum SpaceRoute: String, CaseIterable {
        case create, delete, members, leave, invitations, join, publish, unpublish
        case removeMember = "remove-member"
    }

    /// Creates the routes.
    /// - Parameters:
    ///   - store: Where users, devices and rows are kept.
    ///   - clock: "Now", for `serverTime`, stamps ahead of it, expiry and rate limits.
    ///   - log: Each request at `info` (device, path, status, error code); store failures at `error`.
    ///   - requestsPerMinute: Requests one device may make in a minute before it gets 429.
    ///   - pingInterval: Seconds between two pings of each event stream (`GET /sync/v1/events`).
    public init(
        store: any SyncStore, clock: any PrayClock, log: LogManager, requestsPerMinute: Int = 120,
        pingInterval: TimeInterval = 25
    ) {
        self.store = store
        self.clock = clock
        self.log = log
        limiter = SyncRequestLimiter(limit: max(1, requestsPerMinute), window: 60)
        events = SyncEvents(
            pingInterval: max(0.01, pingInterval),
            pairedDevices: { Set((try? store.devices())?.filter { $0.revokedAt == nil }.map(\.id) ?? []) },
            relay: (store as? any SyncEventRelaying)?.eventRelay(), log: log)
    }

    /// How many event streams are open (`GET /sync/v1/events`).
    public var openStreams: Int { events.count }

    /// Answers one request under `/sync/`. Never traps, and answers 4xx for anything a client sends.
    /// - Parameters:
    ///   - request: The method, path and headers.
    ///   - body: The request's body, read by the server up to its cap.
    ///   - remoteAddress: The client's address (the peer's, or a trusted proxy's forwarded one), for
    ///     the failure counts of pairing and tokens.
    /// - Returns: The JSON response.
    public func respond(to request: ServerAPI.Request, body: Data, remoteAddress: String) -> ServerAPI.Response {
        let now = clock.now()
        var device: String?
        let response: ServerAPI.Response
        do {
            response = try answer(request, body: body, address: remoteAddress, now: now, device: &device)
        } catch {
            response = failure(error, path: request.path)
        }
        log.info(
            "Sync request",
            metadata: [
                "http.method": String(request.method.prefix(16)),
                "http.path": Self.paths.contains(request.path) ? request.path : "(other)",
                "http.status": "\(response.status)", "sync.device": device ?? "-",
                "sync.error": Self.errorCode(of: response) ?? "-",
            ])
        return response
    }

    // MARK: - Routing

    private enum Route {
        case devices, retire, push, pull, events
        case spaces(SpaceRoute?)
    }

    private func answer(
        _ request: ServerAPI.Request, body: Data, address: String, now: Date, device: inout String?
    ) throws -> ServerAPI.Response {
        let route = try Self.route(request)
        guard body.count <= SyncAPI.maximumBodyBytes else {
            throw SyncServerError(
                .tooLarge, message: "the body has more than \(SyncAPI.maximumBodyBytes) bytes: push fewer mutations")
        }
        switch route {
        case .devices:
            let pairing = try Self.decode(SyncAPI.PairRequest.self, from: body, what: "pairing request")
            let paired = try store.pair(pairing, address: address, now: now)
            device = paired.deviceID
            return try Self.json(201, paired)
        case .retire:
            let identity = try authenticate(request, address: address, now: now)
            device = identity.deviceID
            try store.revokeDevice(identity.deviceID, now: now)
            events.end(device: identity.deviceID)
            return try Self.json(200, SyncAPI.RetireResponse(deviceID: identity.deviceID))
        case .events:
            let identity = try authenticate(request, address: address, now: now)
            device = identity.deviceID
            let stream = events.open(device: identity.deviceID, versions: try store.versions(for: identity).versions)
            return ServerAPI.Response(
                status: 200,
                headers: [
                    "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                ], stream: stream)
        case .spaces(let route):
            let identity = try authenticate(request, address: address, now: now)
            device = identity.deviceID
            let asked = try Self.spaceRequest(route, body: body)
            let answer = try store.space(asked, from: identity, address: address, now: now)
            if let space = Self.membershipChange(asked) { events.membershipChanged(space, by: identity.deviceID) }
            switch answer {
            case .spaces(let spaces): return try Self.json(200, spaces)
            case .space(let space): return try Self.json(route == .create ? 201 : 200, space)
            case .members(let members): return try Self.json(200, members)
            case .invitation(let invitation): return try Self.json(201, invitation)
            case .publication(let publication): return try Self.json(200, publication)
            case .done: return try Self.json(200, [String: String]())
            }
        case .push:
            let identity = try authenticate(request, address: address, now: now)
            device = identity.deviceID
            let push = try Self.decode(SyncAPI.PushRequest.self, from: body, what: "push")
            let pushed = try store.push(push, from: identity, now: now)
            if !push.mutations.isEmpty, events.isHeard, let (personal, versions) = try? store.versions(for: identity) {
                // The spaces written: the person's own (mutations without `space`) and each named.
                let written = Set(push.mutations.map { $0.space ?? personal ?? "" })
                events.changed(versions.filter { written.contains($0.key) }, except: identity.deviceID)
            }
            return try Self.json(200, pushed)
        case .pull:
            let identity = try authenticate(request, address: address, now: now)
            device = identity.deviceID
            let pull = try Self.decode(SyncAPI.PullRequest.self, from: body, what: "pull")
            return try Self.json(200, try store.pull(pull, from: identity, now: now))
        }
    }

    private static func route(_ request: ServerAPI.Request) throws(SyncServerError) -> Route {
        let route: Route
        switch request.path {
        case "/sync/v1/devices": route = .devices
        case "/sync/v1/devices/retire": route = .retire
        case "/sync/v1/push": route = .push
        case "/sync/v1/pull": route = .pull
        case "/sync/v1/events": route = .events
        case "/sync/v1/spaces": route = .spaces(nil)
        case let path where path.hasPrefix("/sync/v1/spaces/"):
            guard let space = SpaceRoute(rawValue: String(path.dropFirst("/sync/v1/spaces/".count))) else {
                throw SyncServerError(.notFound, message: "no such sync route: see docs/sync-protocol.md")
            }
            route = .spaces(space)
        default:
            throw SyncServerError(
                .notFound, message: "no such sync route: see /sync/v1/devices, devices/retire, push and pull")
        }
        if case .events = route {
            guard request.method == "GET" else {
                throw SyncServerError(.methodNotAllowed, message: "the event stream takes GET only")
            }
            return route
        }
        guard request.method == "POST" else {
            throw SyncServerError(.methodNotAllowed, message: "this route takes POST only")
        }
        return route
    }

    /// The space whose members a request changed (`nil`: only the caller's own spaces changed), or
    /// `nil` for a request that changes no membership.
    private static func membershipChange(_ request: SyncSpaceRequest) -> String?? {
        switch request {
        case .create, .join: .some(nil)
        case .delete(let asked), .leave(let asked): asked.space
        case .removeMember(let asked): asked.space
        case .list, .members, .invite, .publish, .unpublish: nil
        }
    }

    /// The store's request of a route under `/sync/v1/spaces`.
    private static func spaceRequest(_ route: SpaceRoute?, body: Data) throws(SyncServerError) -> SyncSpaceRequest {
        switch route {
        case nil: .list
        case .create: .create(try decode(SyncAPI.CreateSpaceRequest.self, from: body, what: "space"))
        case .delete: .delete(try decode(SyncAPI.SpaceRequest.self, from: body, what: "space request"))
        case .members: .members(try decode(SyncAPI.SpaceRequest.self, from: body, what: "space request"))
        case .leave: .leave(try decode(SyncAPI.SpaceRequest.self, from: body, what: "space request"))
        case .removeMember:
            .removeMember(try decode(SyncAPI.RemoveMemberRequest.self, from: body, what: "member removal"))
        case .invitations: .invite(try decode(SyncAPI.InvitationRequest.self, from: body, what: "invitation"))
        case .join: .join(try decode(SyncAPI.JoinRequest.self, from: body, what: "invitation code"))
        case .publish: .publish(try decode(SyncAPI.PublishRequest.self, from: body, what: "publication"))
        case .unpublish: .unpublish(try decode(SyncAPI.SpaceRequest.self, from: body, what: "space request"))
        }
    }

    /// The device of the bearer token, within its request rate.
    private func authenticate(_ request: ServerAPI.Request, address: String, now: Date) throws -> SyncDeviceIdentity {
        guard let token = Self.bearerToken(request.header("authorization")) else { throw SyncServerRules.unauthorized }
        let identity = try store.authenticate(token: token, address: address, now: now)
        if let wait = limiter.admit(identity.deviceID, now: now) {
            throw SyncServerError(
                .rateLimited, message: "too many requests from this device: try again in \(wait) seconds",
                retryAfter: wait)
        }
        return identity
    }

    /// The token of `Authorization: Bearer <token>` (the scheme in any case), or `nil`.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingWhitespace()
        return token.isEmpty ? nil : token
    }

    // MARK: - Bodies

    private static func decode<T: Decodable>(_ type: T.Type, from body: Data, what: String) throws(SyncServerError)
        -> T
    {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw SyncServerError(.badRequest, message: "the body is not UTF-8 JSON")
        }
        let value: T
        do {
            value = try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw SyncServerError(.badRequest, message: "the body is not a valid \(what): \(reason(error))")
        } catch {
            throw SyncServerError(.badRequest, message: "the body is not a valid \(what)")
        }
        // A name given twice means one thing to this decoder and maybe another to a proxy in between.
        if let name = JSONRepeatedKeys.first(in: body) {
            throw SyncServerError(
                .badRequest,
                message:
                    "the body is not a valid \(what): it gives '\(redacted(String(name.prefix(64))))' twice in one object"
            )
        }
        return value
    }

    /// Where a body went wrong, in a short sentence (the value itself is not repeated).
    private static func reason(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found): context = found
        case .keyNotFound(let key, let found):
            return "\(path(found.codingPath + [key])) is missing"
        @unknown default: return "it cannot be read"
        }
        let location = context.codingPath.isEmpty ? "" : "\(path(context.codingPath)): "
        return redacted(String((location + context.debugDescription).prefix(200)))
    }

    /// `text` with anything that looks like a device token cut to its scheme, so that a value a
    /// decoder repeats (`unknown status 'pkd_…'`) cannot carry a token into an answer.
    static func redacted(_ text: String) -> String {
        let parts = text.split(separator: SyncServerRules.tokenScheme, omittingEmptySubsequences: false).map(
            String.init)
        guard parts.count > 1 else { return text }
        let rest = parts.dropFirst().map { part in
            "…" + String(part.drop { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
        return ([parts[0]] + rest).joined(separator: SyncServerRules.tokenScheme)
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacing(".[", with: "[")
    }

    private static func json(_ status: Int, _ value: some Encodable) throws -> ServerAPI.Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ServerAPI.Response(status: status, headers: headers, body: try encoder.encode(value))
    }

    fileprivate static let headers: ServerAPI.Fields = [
        "Content-Type": "application/json", "Cache-Control": "no-store",
    ]

    /// The `Retry-After` of a 503 while the database is unavailable: long enough for a PostgreSQL
    /// restart or failover to make progress, short enough that devices catch up soon after.
    static let unavailableRetrySeconds = 5

    // MARK: - Refusals

    private func failure(_ error: any Error, path: String) -> ServerAPI.Response {
        let refusal: SyncServerError
        switch error {
        case let error as SyncServerError:
            refusal = error
        case let error as StorageError where error.kind == .busy:
            log.warning("Sync store busy", metadata: ["http.path": path, "storage.message": error.message])
            refusal = SyncServerError(.unavailable, message: "the server is busy: try again soon", retryAfter: 1)
        case let error as StorageError where error.kind == .unavailable:
            // The database is away (PostgreSQL restarting or failing over): nothing was written, and
            // the device's outbox keeps the push for when it is back.
            log.warning(
                "Sync store unavailable", metadata: ["http.path": path, "storage.message": error.message])
            refusal = SyncServerError(
                .unavailable, message: "the server's database is unavailable: try again soon",
                retryAfter: Self.unavailableRetrySeconds)
        default:
            log.error("Sync store failed", metadata: ["error": "\(error)"])
            refusal = SyncServerError(.internal, message: "the server failed; the administrator can see why in its log")
        }
        var headers = Self.headers
        if let seconds = refusal.retryAfter { headers["Retry-After"] = "\(seconds)" }
        switch refusal.code {
        case .methodNotAllowed: headers["Allow"] = "POST"
        case .unauthorized where path != "/sync/v1/devices": headers["WWW-Authenticate"] = "Bearer"
        default: break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(refusal.body)) ?? Data(#"{"error":"internal","message":""}"#.utf8)
        return ServerAPI.Response(status: refusal.status, headers: headers, body: body)
    }

    /// The `error` of a refusal's body, for the log.
    private static func errorCode(of response: ServerAPI.Response) -> String? {
        guard response.status >= 400 else { return nil }
        return (try? JSONDecoder().decode(SyncAPI.ErrorBody.self, from: response.body))?.error
    }
}

// MARK: - ServerRoutes

extension SyncRoutes: ServerRoutes {
    /// Answers one request under `/sync/` with its own body and the peer's address
    /// (``ServerAPI/Request/body``, ``ServerAPI/Request/remoteAddress``). A request the server refused
    /// before answering (its framing, or a head or body over the limits) gets the refusal's status in
    /// the protocol's error shape: `too_large` for 413, `bad_request` otherwise.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        guard let refusal = request.refusal else {
            return respond(to: request, body: request.body, remoteAddress: request.remoteAddress)
        }
        let code: SyncServerError.Code = refusal.status == 413 ? .tooLarge : .badRequest
        let body = SyncAPI.ErrorBody(error: code.rawValue, message: refusal.message)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ServerAPI.Response(
            status: refusal.status, headers: Self.headers,
            body: (try? encoder.encode(body)) ?? Data(#"{"error":"bad_request","message":""}"#.utf8))
    }
}

/// Requests per device in fixed windows, in memory: a device past the limit waits for its window to
/// end. Windows that ended are dropped as the table grows, so memory stays bounded by the devices
/// active in one window.
final class SyncRequestLimiter: Sendable {
    private let limit: Int
    private let window: TimeInterval
    private let windows = Mutex<[String: (start: Date, count: Int)]>([:])

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Counts a request of `key`: `nil` when it may go on, else the whole seconds to wait.
    func admit(_ key: String, now: Date) -> Int? {
        windows.withLock { windows in
            if windows.count > 10_000 {
                windows = windows.filter { now.timeIntervalSince($0.value.start) < window }
            }
            guard var current = windows[key], now.timeIntervalSince(current.start) < window,
                now >= current.start
            else {
                windows[key] = (now, 1)
                return nil
            }
            guard current.count < limit else {
                return max(1, Int((window - now.timeIntervalSince(current.start)).rounded(.up)))
            }
            current.count += 1
            windows[key] = current
            return nil
        }
    }
}
