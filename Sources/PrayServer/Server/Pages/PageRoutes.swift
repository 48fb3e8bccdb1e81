import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
/// | `/m/<slug>/display/events` | the screen's own events (as `/display/events`): its model's tag |
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
    private let mosques: any MosqueTimetableStore
    private let preferences: any PreferencesStore
    private let maker: PageMaker
    private let events: PublicEvents?

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
    ///     followed (`/m/<slug>/events`, `/m/<slug>/display/events`); a push through this server's
    ///     own sync endpoints is looked at at once (``storeChanged()``).
    ///   - pingInterval: Seconds between two pings of each event stream.
    public init(
        store: (any SyncSpaceStore)?, screen: DisplayAPI.Screen?, calculator: any PrayerCalculator,
        hijri: any HijriService, mosques: any MosqueTimetableStore, preferences: any PreferencesStore,
        country: (@Sendable (Coordinates) -> String?)?, clock: any PrayClock, log: LogManager,
        pollInterval: TimeInterval = 2, pingInterval: TimeInterval = 25
    ) {
        self.store = store
        self.screen = screen
        self.mosques = mosques
        self.preferences = preferences
        let maker = PageMaker(calculator: calculator, hijri: hijri, country: country, clock: clock, log: log)
        self.maker = maker
        events = store.map { store in
            PublicEvents(
                pollInterval: max(0.01, pollInterval), pingInterval: max(0.01, pingInterval),
                version: { slug in try store.published(slug: slug, rows: false)?.version },
                modelTag: { slug in maker.modelTag(of: slug, in: store) },
                relay: (store as? any SyncEventRelaying)?.eventRelay(), log: log)
        }
    }

    /// How many public event streams are open.
    public var openStreams: Int { events?.count ?? 0 }

    /// This server's sync endpoints have just written the store: the open event streams of published
    /// mosques look at it now rather than at their next poll (``ServerRoutesCombined`` calls it).
    public func storeChanged() {
        events?.nudge()
    }

    /// Ends the open event streams of published mosques (their pages reconnect).
    public func endStreams() {
        events?.endAll()
    }

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
                    screen: screen, calculator: maker.calculator, hijri: maker.hijri, mosques: mosques,
                    preferences: preferences)
                return PageMaker.conditional(try maker.month(request, source: source), request: request)
            default: return Self.file(request.path, request: request)
            }
        } catch let error as PrayError where error.kind == .unsupportedDate {
            // A month the calculation does not cover (`?month=0999-12`): the asker's mistake, not the
            // server's, and nothing for its log.
            return DisplayRoutes.text(400, AlAdhanRoutes.sentence(error.message))
        } catch {
            maker.log.error(
                "Page failed", metadata: ["http.path": String(request.path.prefix(200)), "error": "\(error)"])
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
        case "events": return Self.shared(events(space, kind: .version))
        // The screen's own event stream, beside the page (display.js asks for display/events).
        case "display/events": return Self.shared(events(space, kind: .model))
        case "display.json", "month.json", "calendar.ics":
            guard let made = try maker.published(String(page), of: space, in: store, request: request) else {
                return Self.notFound
            }
            return Self.shared(PageMaker.conditional(made, request: request))
        default:
            // The page's own files (display.css, month.js …), beside it, as on /display.
            return page.contains("/") ? Self.notFound : Self.file("/" + page, request: request)
        }
    }

    /// `/m/<slug>/events` (`version` now and after every change) and `/m/<slug>/display/events` (the
    /// screen's `model` events, each the model's tag); both say `gone` when the mosque is unpublished.
    private func events(_ space: SyncPublishedSpace, kind: PublicEvents.Kind) -> ServerAPI.Response {
        guard let events, let stream = events.open(slug: space.slug, version: space.version, kind: kind) else {
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
        PageMaker.conditional(PageMaker.whole(bytes, type: type), request: request)
    }
}
