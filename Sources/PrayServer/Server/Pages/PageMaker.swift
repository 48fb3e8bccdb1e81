import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What makes the pages' answers (``PageRoutes``): the month of a ``PageSource``, and a published
/// mosque's screen model, month and calendar feed from its rows, each kept in a ``PageCache`` until the
/// space's version or the quarter of an hour changes.
struct PageMaker: Sendable {
    let calculator: any PrayerCalculator
    let hijri: any HijriService
    let country: (@Sendable (Coordinates) -> String?)?
    let clock: any PrayClock
    let log: LogManager
    let cache = PageCache()

    // MARK: - Published mosques

    /// `page` (`display.json`, `month.json` or `calendar.ics`) of `space`, made whole (whatever the
    /// request's `If-None-Match`) or kept; `nil` when the space is no longer published.
    /// - Throws: What the store and the calculation throw.
    func published(
        _ page: String, of space: SyncPublishedSpace, in store: any SyncSpaceStore, request: ServerAPI.Request
    ) throws -> ServerAPI.Response? {
        let key = PageCache.key(space: space, page: page, query: request.query, now: clock.now())
        if let kept = cache.answer(key) { return kept }
        guard let rows = try store.published(slug: space.slug, rows: true) else { return nil }
        var whole = request
        whole.headers = [:]
        let made = try answer(page, of: PublishedMosque(rows), request: whole)
        cache.keep(made, under: key)
        return made
    }

    /// The tag of the screen's model of the mosque published at `slug` now (what its
    /// `display/events` stream tells), or `nil` when it is not published or the model cannot be made.
    func modelTag(of slug: String, in store: any SyncSpaceStore) -> String? {
        guard let space = try? store.published(slug: slug, rows: false),
            let model = try? published("display.json", of: space, in: store, request: ServerAPI.Request(target: "/")),
            model.status == 200
        else { return nil }
        return model.headers["ETag"]
    }

    /// A published mosque's model, month or feed, made from its rows.
    private func answer(_ page: String, of mosque: PublishedMosque, request: ServerAPI.Request) throws
        -> ServerAPI.Response
    {
        guard let screen = try PageSource.screen(of: mosque, country: country, now: clock.now()) else {
            return DisplayRoutes.text(404, "This mosque has not published its place or its timetable yet.")
        }
        let source = PageSource(
            screen: screen, calculator: calculator, hijri: hijri, mosques: mosque,
            preferences: PageSource.choosing(mosque))
        switch page {
        case "month.json": return try month(request, source: source)
        case "calendar.ics": return try feed(mosque, source: source)
        default: return model(request, source: source)
        }
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
    private func feed(_ mosque: PublishedMosque, source: PageSource) throws -> ServerAPI.Response {
        let today = try source.today(clock)
        let (days, month, _) = try source.days(from: today, count: PrayerFeed.days)
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
        var response = Self.whole(Data(feed.text.utf8), type: "text/calendar; charset=utf-8")
        response.headers["Content-Disposition"] = "inline; filename=\"\(mosque.space.slug).ics\""
        return response
    }

    // MARK: - The month

    /// The month of `?month=YYYY-MM`, or the current month in the place's zone, whole.
    func month(_ request: ServerAPI.Request, source: PageSource) throws -> ServerAPI.Response {
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
        let (days, month, hasTimetable) = try source.days(
            from: first, count: CivilDate.daysIn(month: chosen.month, year: chosen.year))
        let saved = try source.preferences.preferences()
        let model = MonthModel(
            screen: source.screen, request: days, month: month, year: chosen.year, monthNumber: chosen.month,
            mosque: month.schedules.contains { $0.mosque != nil } ? saved[.mosque] : nil, timetable: hasTimetable,
            notices: try MonthModel.notices(of: saved[.mosque], in: source.mosques, now: clock.now()))
        return Self.whole(Data(model.json.renderedBytes), type: "application/json")
    }

    // MARK: - Answers

    /// A 200 with `bytes`, their strong tag and the pages' security fields; `no-cache`: a browser or a
    /// calendar keeps the answer and asks each time whether it changed.
    static func whole(_ bytes: Data, type: String) -> ServerAPI.Response {
        var headers = DisplayRoutes.securityHeaders
        headers["ETag"] = DisplayRoutes.entityTag(bytes)
        headers["Cache-Control"] = "no-cache"
        headers["Content-Type"] = type
        return ServerAPI.Response(status: 200, headers: headers, body: bytes)
    }

    /// `response` (a `200`), or a `304` with its fields when the request's `If-None-Match` names its tag.
    static func conditional(_ response: ServerAPI.Response, request: ServerAPI.Request) -> ServerAPI.Response {
        guard response.status == 200, let tag = response.headers["ETag"] else { return response }
        return ResponseCache.conditional(response, tag: tag, request: request)
    }
}
