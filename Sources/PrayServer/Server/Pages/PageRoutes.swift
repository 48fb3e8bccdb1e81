import Foundation
import PrayCore

/// The pages people open (``PagesAPI``, docs/pages.md): the month of the screen's place or chosen mosque
/// (`/month` and its model `/month.json`, with `praykit serve --display`), and, on a sync server, the
/// pages of each published mosque, readable without an account:
///
/// | Path | What |
/// |---|---|
/// | `/m/<slug>/display` | the screen (`/display`'s page), its model at `/m/<slug>/display.json` |
/// | `/m/<slug>.json` | the screen's model, as `/display.json` has it for a device that follows the mosque |
/// | `/m/<slug>/month` | the month to print or read on a phone; its model at `/m/<slug>/month.json` |
/// | `/m/<slug>.ics` | a calendar feed of the next 60 days |
/// | `/m/<slug>/events` | server-sent events: `version` when the mosque changed, `gone` when unpublished |
///
/// Everything a published page shows is made on the server from the space's rows:
/// its settings, timetable months, announced month starts and notices; a model or a feed made is kept
/// until the space's version or the quarter of an hour changes, so a fetch again, or its `304`, costs
/// one read of the store. A slug that is not published —
/// never, no longer, or not a slug at all — gets the same `404 No such page.` on every path; no token is
/// read, and none is ever in a page or a URL. Every answer carries the screen's security fields (a strict
/// `Content-Security-Policy`, `nosniff`, `no-referrer`) and a strong `ETag`; `If-None-Match` gets `304`.
///
/// ```swift
/// let routes = PageRoutes(
///     store: store, screen: nil, calculator: calculator, hijri: hijri, mosques: mosques,
///     preferences: preferences, country: nil, clock: PrayClockSystem(), log: .silent)
/// let answer = routes.respond(to: ServerAPI.Request(target: "/m/east-london-mosque.ics"))
/// ```
public struct PageRoutes: ServerRoutes {
    private let store: (any SyncSpaceStore)?
    private let screen: DisplayAPI.Screen?
    private let calculator: any PrayerCalculator
    private let hijri: any HijriService
    private let mosques: any MosqueTimetableStore
    private let preferences: any PreferencesStore
    private let country: (@Sendable (Coordinates) -> String?)?
    private let clock: any PrayClock
    private let log: LogManager
    private let events: PublicEvents?
    private let cache = PageCache()

    /// Creates the routes.
    /// - Parameters:
    ///   - store: The sync store whose published mosques are served, or `nil` (no `/m/` pages).
    ///   - screen: The place of `praykit serve --display`, or `nil` (no `/month`).
    ///   - calculator: The calculation, on the caller's thread.
    ///   - hijri: The Hijri calendar (each page's announced starts are followed on top).
    ///   - mosques: This machine's mosque timetables (the screen's chosen mosque).
    ///   - preferences: This machine's saved iqama, Jumu'ah and chosen mosque (the screen's).
    ///   - country: The country at a place (ISO 3166-1 alpha-2): a published mosque's method is its
    ///     country's, as `praykit times` chooses one; `nil`: the Muslim World League.
    ///   - clock: Today comes from it.
    ///   - log: Where failures are logged.
    ///   - pollInterval: Seconds between two looks at the versions of the mosques whose events are
    ///     followed (`/m/<slug>/events`).
    ///   - pingInterval: Seconds between two pings of each event stream.
    public init(
        store: (any SyncSpaceStore)?, screen: DisplayAPI.Screen?, calculator: any PrayerCalculator,
        hijri: any HijriService, mosques: any MosqueTimetableStore, preferences: any PreferencesStore,
        country: (@Sendable (Coordinates) -> String?)?, clock: any PrayClock, log: LogManager,
        pollInterval: TimeInterval = 2, pingInterval: TimeInterval = 25
    ) {
        self.store = store
        self.screen = screen
        self.calculator = calculator
        self.hijri = hijri
        self.mosques = mosques
        self.preferences = preferences
        self.country = country
        self.clock = clock
        self.log = log
        events = store.map { store in
            PublicEvents(
                pollInterval: max(0.01, pollInterval), pingInterval: max(0.01, pingInterval),
                version: { slug in try store.published(slug: slug, rows: false)?.version }, log: log)
        }
    }

    /// How many public event streams are open.
    public var openStreams: Int { events?.count ?? 0 }

    /// Answers a page, its files, its model, its feed or its events; `404 No such page.` for anything
    /// else, `405` for a method other than GET and HEAD.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        if let refusal = request.refusal { return DisplayRoutes.text(refusal.status, refusal.message) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = DisplayRoutes.text(405, "Only GET and HEAD are answered here.")
            response.headers["Allow"] = "GET, HEAD"
            return response
        }
        do {
            if request.path.hasPrefix(PagesAPI.publishedPrefix) { return try published(request) }
            guard let screen else { return Self.notFound }
            switch request.path {
            case "/month.json":
                let source = PageSource(
                    screen: screen, calculator: calculator, hijri: hijri, mosques: mosques, preferences: preferences)
                return try month(request, source: source)
            default: return Self.file(request.path, request: request)
            }
        } catch {
            log.error("Page failed", metadata: ["http.path": String(request.path.prefix(200)), "error": "\(error)"])
            return DisplayRoutes.text(500, "The page could not be made; the server's log says why.")
        }
    }
}

// MARK: - Published mosques

extension PageRoutes {
    /// A path under `/m/`: the slug, then what of it.
    private func published(_ request: ServerAPI.Request) throws -> ServerAPI.Response {
        let rest = request.path.dropFirst(PagesAPI.publishedPrefix.count)
        let slug: Substring
        let page: Substring
        if let slash = rest.firstIndex(of: "/") {
            slug = rest[..<slash]
            page = rest[rest.index(after: slash)...]
        } else if rest.hasSuffix(".json") {
            slug = rest.dropLast(5)
            page = "display.json"
        } else if rest.hasSuffix(".ics") {
            slug = rest.dropLast(4)
            page = "calendar.ics"
        } else {
            return Self.notFound
        }
        guard let store, let space = try store.published(slug: String(slug), rows: false) else {
            return Self.notFound
        }
        switch page {
        case "display": return Self.file("/display", request: request)
        case "month": return Self.file("/month", request: request)
        case "events": return Self.shared(events(space, request: request))
        case "display.json", "month.json", "calendar.ics":
            let key = PageCache.key(space: space, page: String(page), query: request.query, now: clock.now())
            if let kept = cache.answer(key) { return Self.shared(Self.conditional(kept, request: request)) }
            // Made whole (no If-None-Match), kept, then answered as the request asks.
            var whole = request
            whole.headers = [:]
            guard let rows = try store.published(slug: String(slug), rows: true) else { return Self.notFound }
            let made = try answer(page, of: PublishedMosque(rows), request: whole)
            cache.keep(made, under: key)
            return Self.shared(Self.conditional(made, request: request))
        default:
            // The page's own files (display.css, month.js …), beside it, as on /display.
            return page.contains("/") ? Self.notFound : Self.file("/" + page, request: request)
        }
    }

    /// A published mosque's model, month or feed, made from its rows.
    private func answer(_ page: Substring, of mosque: PublishedMosque, request: ServerAPI.Request) throws
        -> ServerAPI.Response
    {
        guard let screen = try PageSource.screen(of: mosque, country: country, now: clock.now()) else {
            return DisplayRoutes.text(404, "This mosque has not published its place or its timetable yet.")
        }
        let source = PageSource(
            screen: screen, calculator: calculator, hijri: hijri, mosques: mosque,
            preferences: PageSource.choosing(mosque))
        if page == "month.json" { return try month(request, source: source) }
        if page == "calendar.ics" { return try feed(mosque, source: source, request: request) }
        return model(request, source: source)
    }

    /// `response` (a `200`), or a `304` with its fields when the request's `If-None-Match` names its tag.
    private static func conditional(_ response: ServerAPI.Response, request: ServerAPI.Request) -> ServerAPI.Response {
        guard response.status == 200, let tag = response.headers["ETag"],
            let expected = request.header("If-None-Match"), AlAdhanRoutes.matches(expected, tag)
        else { return response }
        var headers = response.headers
        headers["Content-Type"] = nil
        headers["Content-Disposition"] = nil
        return ServerAPI.Response(status: 304, headers: headers)
    }

    /// The screen's model of a published mosque: `/display.json`'s answer (``DisplayRoutes``) from the
    /// mosque's rows, as a device that follows it makes it.
    private func model(_ request: ServerAPI.Request, source: PageSource) -> ServerAPI.Response {
        let routes = DisplayRoutes(
            screen: source.screen, calculator: calculator, hijri: hijri, mosques: source.mosques,
            preferences: source.preferences, clock: clock, log: log)
        var asked = request
        asked.path = DisplayRoutes.modelPath
        return routes.respond(to: asked)
    }

    /// `/m/<slug>.ics`: the next ``PrayerFeed/days`` days from today in the mosque's zone.
    private func feed(_ mosque: PublishedMosque, source: PageSource, request: ServerAPI.Request) throws
        -> ServerAPI.Response
    {
        let today = try source.today(clock)
        let (days, month) = try source.days(from: today, count: PrayerFeed.days)
        let feed = PrayerFeed(
            name: "Prayer times — \(mosque.name)", coordinates: days.coordinates, location: mosque.name, month: month,
            zone: days.timeZone, key: PrayerFeed.key("space:" + mosque.space.id),
            eid: mosque.settingsRow?.value.eid ?? [],
            change: { date in
                let row = mosque.lastChange(of: date)
                return PrayerFeed.Change(
                    sequence: Int(min(row?.version ?? 0, Int64(Int32.max))), modified: row?.writtenAt)
            },
            windowStart: IqamaSettings.instant(0, on: today, in: days.timeZone) ?? clock.now())
        return PrayerFeed.response(feed.text, filename: mosque.space.slug + ".ics", request: request)
    }

    /// `/m/<slug>/events`: `version` now and after every change, `gone` when unpublished.
    private func events(_ space: SyncPublishedSpace, request: ServerAPI.Request) -> ServerAPI.Response {
        guard let events, let stream = events.open(slug: space.slug, version: space.version) else {
            var response = DisplayRoutes.text(503, "Too many pages are following this server's mosques: try later.")
            response.headers["Retry-After"] = "60"
            return response
        }
        var headers = DisplayRoutes.securityHeaders
        headers["Content-Type"] = "text/event-stream; charset=utf-8"
        headers["Cache-Control"] = "no-store"
        headers["X-Accel-Buffering"] = "no"
        return ServerAPI.Response(status: 200, headers: headers, stream: stream)
    }
}

// MARK: - The month

extension PageRoutes {
    /// The month of `?month=YYYY-MM`, or the current month in the place's zone.
    private func month(_ request: ServerAPI.Request, source: PageSource) throws -> ServerAPI.Response {
        let chosen: (year: Int, month: Int)
        if let text = request.query["month"] {
            guard let parsed = MonthModel.month(parsing: text) else {
                return DisplayRoutes.text(400, "month must be a month such as 2027-07, got '\(text.prefix(40))'.")
            }
            chosen = parsed
        } else {
            let today = try source.today(clock)
            chosen = (today.year, today.month)
        }
        let first = try CivilDate(year: chosen.year, month: chosen.month, day: 1)
        let (days, month) = try source.days(
            from: first, count: CivilDate.daysIn(month: chosen.month, year: chosen.year))
        let saved = try source.preferences.preferences()
        let model = MonthModel(
            screen: source.screen, request: days, month: month, year: chosen.year, monthNumber: chosen.month,
            mosque: month.schedules.contains { $0.mosque != nil } ? saved[.mosque] : nil,
            notices: try MonthModel.notices(of: saved[.mosque], in: source.mosques, now: clock.now()))
        return Self.tagged(Data(model.json.renderedBytes), type: "application/json", request: request)
    }
}

// MARK: - Helpers

extension PageRoutes {
    /// The one answer for what is not here: an unknown path, and a slug not published, alike.
    static var notFound: ServerAPI.Response { DisplayRoutes.text(404, "No such page.") }

    /// `response` readable by a page of any other site too (`Access-Control-Allow-Origin: *`): a published
    /// mosque's models, feed and events are public and read with no credential, so a mosque's own web
    /// site may show them.
    private static func shared(_ response: ServerAPI.Response) -> ServerAPI.Response {
        var response = response
        if response.status == 200 || response.status == 304 { response.headers["Access-Control-Allow-Origin"] = "*" }
        return response
    }

    /// An embedded page file (``PageFile``), or ``notFound``.
    private static func file(_ path: String, request: ServerAPI.Request) -> ServerAPI.Response {
        guard let file = PageFile.all[path] else { return notFound }
        return tagged(file.bytes, type: file.mediaType, request: request)
    }

    /// A 200 with `bytes` and their strong tag, or a 304 when `If-None-Match` names it. `no-cache`: a
    /// browser or a calendar keeps the answer and asks each time whether it changed.
    static func tagged(_ bytes: Data, type: String, request: ServerAPI.Request) -> ServerAPI.Response {
        var headers = DisplayRoutes.securityHeaders
        let tag = DisplayRoutes.entityTag(bytes)
        headers["ETag"] = tag
        headers["Cache-Control"] = "no-cache"
        if let expected = request.header("If-None-Match"), AlAdhanRoutes.matches(expected, tag) {
            return ServerAPI.Response(status: 304, headers: headers)
        }
        headers["Content-Type"] = type
        return ServerAPI.Response(status: 200, headers: headers, body: bytes)
    }
}
