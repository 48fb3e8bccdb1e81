import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Answers kept for the day they belong to: a route whose answer is a function of its request and of
/// the day (a month's times, a screen's model) computes it once, and every later request for it gets
/// the same bytes and the same `ETag` — or a `304` when `If-None-Match` names that tag.
///
/// The key is the whole request as the route reads it — its path and every query parameter, exactly
/// as sent (coordinates are never rounded: two places a metre apart are two entries) — plus whatever
/// else the answer depends on that the route adds (the saved settings it read). An entry holds until
/// the instant its route gives (the end of the day in the place's zone, at the latest a day on) and
/// while the cache has room: past ``maximumBytes`` of bodies, the expired entries go, then the
/// oldest ones.
///
/// ```swift
/// let cache = ResponseCache(maximumBytes: 16 << 20)
/// let response = cache.response(for: request, key: key, now: clock.now()) {
///     (routes.answer(request), expires: nextMidnight)
/// }
/// ```
final class ResponseCache: Sendable {
    /// One answer and when it stops being the answer.
    private struct Entry {
        let response: ServerAPI.Response
        let tag: String
        let expires: Date
        /// The order it was stored in (the oldest go first).
        let stored: UInt64
    }

    /// How many requests were answered from the cache, and how many were computed.
    struct Counts: Equatable, Sendable {
        /// Requests answered from an entry (its body, or a 304).
        var hits = 0
        /// Requests whose answer was computed: no entry, or an expired one.
        var misses = 0

        /// The share of requests answered from the cache, 0…1 (0 before any request).
        var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    }

    /// The most bytes of bodies kept.
    let maximumBytes: Int
    private let state: Mutex<State>

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var counts = Counts()
        var order: UInt64 = 0
    }

    /// Creates an empty cache that keeps at most `maximumBytes` of bodies.
    init(maximumBytes: Int) {
        self.maximumBytes = max(1, maximumBytes)
        state = Mutex(State())
    }

    /// The hits and misses so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// The number of answers kept.
    var count: Int { state.withLock { $0.entries.count } }

    /// The answer kept under `key` while it holds at `now`; otherwise `compute`'s, kept when it is a
    /// 200 with an `ETag` until the instant `compute` gives. Either way a request whose
    /// `If-None-Match` names the answer's tag gets a `304` with the same fields (but its type and
    /// `Content-Disposition`) and no body.
    /// - Parameters:
    ///   - request: The request (its `If-None-Match`).
    ///   - key: Everything the answer depends on, as text: the route's path and query at least.
    ///   - now: The instant of the request, on the routes' clock.
    ///   - compute: The answer and the first instant it no longer holds. It runs outside the cache's
    ///     lock: two threads that miss together both compute it, and the later answer is kept.
    func response(
        for request: ServerAPI.Request, key: String, now: Date,
        compute: () -> (response: ServerAPI.Response, expires: Date)
    ) -> ServerAPI.Response {
        let found: Entry? = state.withLock { state in
            guard let entry = state.entries[key], now < entry.expires else {
                state.counts.misses += 1
                return nil
            }
            state.counts.hits += 1
            return entry
        }
        if let found { return Self.conditional(found.response, tag: found.tag, request: request) }
        let (computed, expires) = compute()
        // A 304 computed for this request is not the answer to keep: the 200 is.
        guard computed.status == 200, let tag = computed.headers["ETag"] else { return computed }
        if now < expires, computed.body.count <= maximumBytes / 4 {
            state.withLock { state in
                if let old = state.entries[key] { state.bytes -= old.response.body.count }
                state.order += 1
                state.entries[key] = Entry(response: computed, tag: tag, expires: expires, stored: state.order)
                state.bytes += computed.body.count
                if state.bytes > maximumBytes { evict(&state, now: now) }
            }
        }
        // A client that holds this answer already (a screen after the server restarted) gets its 304.
        return Self.conditional(computed, tag: tag, request: request)
    }

    /// The kept 200, or a 304 of it when `If-None-Match` names its tag.
    static func conditional(_ response: ServerAPI.Response, tag: String, request: ServerAPI.Request)
        -> ServerAPI.Response
    {
        guard let expected = request.headers["if-none-match"], AlAdhanRoutes.matches(expected, tag) else {
            return response
        }
        return .notModified(standingFor: response)
    }

    /// Makes room: the expired entries go, then the oldest until the bodies take at most half the budget.
    private func evict(_ state: inout State, now: Date) {
        state.entries = state.entries.filter { now < $0.value.expires }
        state.bytes = state.entries.values.reduce(0) { $0 + $1.response.body.count }
        guard state.bytes > maximumBytes / 2 else { return }
        for (key, entry) in state.entries.sorted(by: { $0.value.stored < $1.value.stored }) {
            guard state.bytes > maximumBytes / 2 else { break }
            state.entries[key] = nil
            state.bytes -= entry.response.body.count
        }
    }
}
