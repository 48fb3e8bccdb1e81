import CPrayPages
import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The screen of `praykit serve --display`: the page `/display` (HTML, one CSS file and JavaScript
/// modules, embedded at build time from `Sources/PrayServer/Pages`), its model `/display.json` — the
/// place's times for the next ``DisplayAPI/days`` days — and its event stream `/display/events`, which
/// tells an open page when the model changed.
///
/// Every answer carries a strict `Content-Security-Policy` (`default-src 'self'`, no inline script),
/// `X-Content-Type-Options: nosniff` and a strong `ETag`; `If-None-Match` gets `304`. The model is
/// calculated on the server's thread from the container's calculation, with the chosen mosque laid
/// over it — its place and zone, timetable, iqama rules, Jumu'ah and Eid prayers, Hijri calendar,
/// screen settings and notices (``PrayerServiceMosque/overlay(_:for:store:mosque:)``) — and the saved
/// iqama, Jumu'ah and `display` setting, all read at each answer: `praykit config set iqama …`, or a
/// change that sync brings, reaches an open screen through the event stream.
///
/// ```swift
/// let routes = DisplayRoutes(
///     screen: DisplayAPI.Screen(prepared: prepared), calculator: calculator, hijri: hijri,
///     mosques: mosques, preferences: preferences, clock: PrayClockSystem(), log: .silent)
/// let answer = routes.respond(to: ServerAPI.Request(target: "/display.json"))
/// ```
public struct DisplayRoutes: ServerRoutes {
    private let source: DisplayModelSource
    private let events: DisplayEvents
    /// The models made, by all they were made of (``DisplayModelSource/Inputs/key``), until the
    /// place's midnight.
    private let cache: ResponseCache

    /// Creates the routes.
    /// - Parameters:
    ///   - screen: The place and the phases.
    ///   - calculator: The calculation, on the caller's thread.
    ///   - hijri: The Hijri calendar (the request's announced starts are followed on top).
    ///   - mosques: The mosques kept: imported timetables and followed mosque spaces.
    ///   - preferences: Where the chosen mosque, the iqama, the Jumu'ah and the `display` setting are saved.
    ///   - clock: Today's date comes from it.
    ///   - log: Where failures are logged.
    ///   - pingInterval: Seconds between two pings of each event stream, at which the model is also
    ///     checked again.
    public init(
        screen: DisplayAPI.Screen, calculator: any PrayerCalculator, hijri: any HijriService,
        mosques: any MosqueTimetableStore, preferences: any PreferencesStore, clock: any PrayClock, log: LogManager,
        pingInterval: TimeInterval = 25
    ) {
        let source = DisplayModelSource(
            screen: screen, calculator: calculator, hijri: hijri, mosques: mosques, preferences: preferences,
            clock: clock, log: log)
        self.source = source
        let cache = ResponseCache(maximumBytes: 8 << 20)
        self.cache = cache
        events = DisplayEvents(pingInterval: pingInterval, preferences: preferences, mosques: mosques) {
            // The stream's pings ask for the tag every 25 s: from the cache while nothing changed.
            Self.model(ServerAPI.Request(target: Self.modelPath), date: nil, source: source, cache: cache)
                .headers["ETag"]
        }
    }

    /// The model's path.
    public static let modelPath = "/display.json"
    /// The event stream's path.
    public static let eventsPath = "/display/events"

    /// Answers the page, its files, its model and its event stream; 404 for any other path, 405 for a
    /// method other than GET and HEAD (GET only for the stream).
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        if let refusal = request.refusal { return Self.text(refusal.status, refusal.message) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.text(405, "Only GET and HEAD are answered here.")
            response.headers["Allow"] = "GET, HEAD"
            return response
        }
        if request.path == Self.modelPath { return model(request) }
        if request.path == Self.eventsPath { return eventStream(request) }
        guard let file = PageFile.all[request.path] else { return Self.text(404, "No such page.") }
        return Self.tagged(file.bytes, type: file.mediaType, tag: file.tag, request: request)
    }

    /// How many event streams are open.
    public var openStreams: Int { events.count }

    /// Ends every event stream (the server ends them itself when it stops).
    public func endStreams() { events.endAll() }
}

// MARK: - Helpers

extension DisplayRoutes {
    /// The fields every answer carries: the page may load only its own files and talk only to its server.
    static let securityHeaders: ServerAPI.Fields = [
        "Content-Security-Policy":
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    ]

    /// `/display.json` from today in the place's zone, or from `?date=YYYY-MM-DD` (a screen set up
    /// ahead of a day, and the tests' days).
    private func model(_ request: ServerAPI.Request) -> ServerAPI.Response {
        var date: CivilDate?
        if let text = request.query["date"] {
            guard let day = try? CivilDate(parsing: text) else {
                return Self.text(400, "date must be a day such as 2027-10-31, got '\(text.prefix(40))'.")
            }
            date = day
        }
        return Self.model(request, date: date, source: source, cache: cache)
    }

    /// How many models were answered from the cache, and how many were made.
    var cacheCounts: ResponseCache.Counts { cache.counts }

    /// The model from `date` (else today), from `cache` while nothing it is made of changed and its day
    /// lasts; a 304 when `If-None-Match` names its tag.
    private static func model(
        _ request: ServerAPI.Request, date: CivilDate?, source: DisplayModelSource, cache: ResponseCache
    ) -> ServerAPI.Response {
        let inputs: DisplayModelSource.Inputs
        do {
            inputs = try source.inputs(from: date)
        } catch {
            return failure(error, source: source)
        }
        let now = source.clock.now()
        return cache.response(for: request, key: inputs.key, now: now) {
            do {
                let body = try source.body(inputs)
                // Unconditional: the 200 is what is kept; the cache answers the 304 itself.
                var headers = securityHeaders
                headers["Content-Type"] = "application/json"
                headers["ETag"] = entityTag(body)
                headers["Cache-Control"] = "no-cache"
                // Until the place's next midnight: then "today" is another day.
                var clock = ZoneClock(timeZone: inputs.days.timeZone)
                let today = (try? CivilDate(containing: now, in: inputs.days.timeZone)) ?? inputs.days.date
                let midnight = clock.instant(of: today.adding(days: 1), hour: 0).map(Date.init(timeIntervalSince1970:))
                return (ServerAPI.Response(status: 200, headers: headers, body: body), midnight ?? now)
            } catch {
                return (failure(error, source: source), now)
            }
        }
    }

    /// The answer to a model that could not be made: 400 for days the calculation does not cover (a
    /// `date` such as 0999-12-31, or one whose month runs past 9999-12-31) or a setting it refuses —
    /// the asker's mistake, nothing for the log — else 500, logged.
    private static func failure(_ error: any Error, source: DisplayModelSource) -> ServerAPI.Response {
        if let error = error as? PrayError, error.kind == .unsupportedDate {
            return Self.text(400, AlAdhanRoutes.sentence(error.message))
        }
        if let error = error as? ValidationError, error.field == "days" {
            return Self.text(400, AlAdhanRoutes.sentence(error.message))
        }
        source.log.error("Display model failed", metadata: ["error": "\(error)"])
        return Self.text(500, "The times could not be calculated: \(error)")
    }

    /// `/display/events`: a stream of `model` events, each the model's tag (GET only).
    private func eventStream(_ request: ServerAPI.Request) -> ServerAPI.Response {
        guard request.method == "GET" else {
            var response = Self.text(405, "The event stream takes GET only.")
            response.headers["Allow"] = "GET"
            return response
        }
        var headers = Self.securityHeaders
        headers["Content-Type"] = "text/event-stream; charset=utf-8"
        headers["Cache-Control"] = "no-store"
        headers["X-Accel-Buffering"] = "no"
        return ServerAPI.Response(status: 200, headers: headers, stream: events.open())
    }

    /// A 200 with `bytes`, or a 304 when `If-None-Match` names `tag`. `no-cache`: a browser keeps the
    /// file and asks each time whether it changed, so a new `praykit` reaches an open screen.
    private static func tagged(
        _ bytes: Data, type: String, tag: String, request: ServerAPI.Request
    ) -> ServerAPI.Response {
        var headers = securityHeaders
        headers["ETag"] = tag
        headers["Cache-Control"] = "no-cache"
        headers["Content-Type"] = type
        let response = ServerAPI.Response(status: 200, headers: headers, body: bytes)
        if let expected = request.header("If-None-Match"), AlAdhanRoutes.matches(expected, tag) {
            return .notModified(standingFor: response)
        }
        return response
    }

    /// A plain-text answer that is not cached.
    static func text(_ status: Int, _ message: String) -> ServerAPI.Response {
        var headers = securityHeaders
        headers["Content-Type"] = "text/plain; charset=utf-8"
        headers["Cache-Control"] = "no-store"
        return ServerAPI.Response(status: status, headers: headers, body: Data((message + "\n").utf8))
    }

    /// A strong tag of `bytes`: the first 16 hexadecimal digits of their SHA-256.
    static func entityTag(_ bytes: some Collection<UInt8>) -> String {
        "\"" + SHA256.hex(Array(SHA256.hash(bytes).prefix(8))) + "\""
    }
}

/// One embedded page file (CPrayPages): its bytes and its tag.
struct PageFile: Sendable {
    let mediaType: String
    let bytes: Data
    let tag: String

    /// The files by URL path, copied once from the binary (a few tens of KB).
    static let all: [String: PageFile] = {
        var count = 0
        guard let files = praykit_page_files(&count) else { return [:] }
        var table: [String: PageFile] = [:]
        for file in UnsafeBufferPointer(start: files, count: count) {
            guard let path = file.path, let type = file.media_type, let start = file.bytes else { continue }
            let bytes = Data(UnsafeBufferPointer(start: start, count: file.count))
            table[String(cString: path)] = PageFile(
                mediaType: String(cString: type), bytes: bytes, tag: DisplayRoutes.entityTag(bytes))
        }
        return table
    }()
}
