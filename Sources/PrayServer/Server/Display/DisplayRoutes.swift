import CPrayPages
import Foundation
import PrayCore
import Synchronization

/// The screen of `praykit serve --display`: the page `/display` (HTML, one CSS file and JavaScript
/// modules, embedded at build time from `Sources/PrayServer/Pages`) and its model `/display.json`,
/// the place's times for the next ``DisplayAPI/days`` days.
///
/// Every answer carries a strict `Content-Security-Policy` (`default-src 'self'`, no inline script),
/// `X-Content-Type-Options: nosniff` and a strong `ETag`; `If-None-Match` gets `304`. The model is
/// calculated on the server's thread from the container's calculation, with the chosen mosque's
/// timetable laid over it (``PrayerServiceMosque/overlay(_:for:store:mosque:)``) and the saved iqama
/// and Jumu'ah read at each answer, so `praykit config set iqama …` reaches an open screen at its
/// next fetch.
///
/// ```swift
/// let routes = DisplayRoutes(
///     screen: DisplayAPI.Screen(prepared: prepared), calculator: calculator, hijri: hijri,
///     mosques: mosques, preferences: preferences, clock: PrayClockSystem(), log: .silent)
/// let answer = routes.respond(to: ServerAPI.Request(target: "/display.json"))
/// ```
public struct DisplayRoutes: ServerRoutes {
    private let screen: DisplayAPI.Screen
    private let calculator: any PrayerCalculator
    private let hijri: any HijriService
    private let mosques: any MosqueTimetableStore
    private let preferences: any PreferencesStore
    private let clock: any PrayClock
    private let log: LogManager

    /// Creates the routes.
    /// - Parameters:
    ///   - screen: The place and the phases.
    ///   - calculator: The calculation, on the caller's thread.
    ///   - hijri: The Hijri calendar (the request's announced starts are followed on top).
    ///   - mosques: The imported mosque timetables.
    ///   - preferences: Where the chosen mosque and the iqama and Jumu'ah are saved.
    ///   - clock: Today's date comes from it.
    ///   - log: Where failures are logged.
    public init(
        screen: DisplayAPI.Screen, calculator: any PrayerCalculator, hijri: any HijriService,
        mosques: any MosqueTimetableStore, preferences: any PreferencesStore, clock: any PrayClock, log: LogManager
    ) {
        self.screen = screen
        self.calculator = calculator
        self.hijri = hijri
        self.mosques = mosques
        self.preferences = preferences
        self.clock = clock
        self.log = log
    }

    /// The model's path.
    public static let modelPath = "/display.json"

    /// Answers the page, its files and its model; 404 for any other path, 405 for a method other than
    /// GET and HEAD.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        if let refusal = request.refusal { return Self.text(refusal.status, refusal.message) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.text(405, "Only GET and HEAD are answered here.")
            response.headers["Allow"] = "GET, HEAD"
            return response
        }
        if request.path == Self.modelPath { return model(request) }
        guard let file = PageFile.all[request.path] else { return Self.text(404, "No such page.") }
        return Self.tagged(file.bytes, type: file.mediaType, tag: file.tag, request: request)
    }
}

// MARK: - Helpers

extension DisplayRoutes {
    /// The fields every answer carries: the page may load only its own files and talk only to its server.
    static let securityHeaders: [String: String] = [
        "Content-Security-Policy":
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    ]

    /// `/display.json` from today in the place's zone, or from `?date=YYYY-MM-DD` (a screen set up
    /// ahead of a day, and the tests' days).
    private func model(_ request: ServerAPI.Request) -> ServerAPI.Response {
        var days = screen.prepared.request
        days.days = DisplayAPI.days
        do {
            if let text = request.query["date"] {
                guard let date = try? CivilDate(parsing: text) else {
                    return Self.text(400, "date must be a day such as 2027-10-31, got '\(text.prefix(40))'.")
                }
                days.date = date
            } else {
                days.date = try CivilDate(containing: clock.now(), in: days.timeZone)
            }
            let saved = try preferences.preferences()
            // Read again for every model, as the mosque's times are: a month start sync brought shows.
            try HijriCalendarChoice(saved: saved, mosques: mosques).apply(to: &days)
            let schedules = try PrayerServiceMosque.overlay(
                calculator.schedules(for: days), for: days, store: mosques, mosque: saved[.mosque])
            let hijriDays = try hijri.following(days.hijriMonthStarts).days(
                for: HijriAPI.Request(
                    date: days.date, days: days.days, calendar: days.hijriCalendar, offset: days.hijriOffset))
            let body = Data(
                DisplayModel(screen: screen, schedules: schedules, hijri: hijriDays, iqama: saved.iqamaSettings)
                    .json.renderedBytes)
            return Self.tagged(body, type: "application/json", tag: Self.entityTag(body), request: request)
        } catch {
            log.error("Display model failed", metadata: ["error": "\(error)"])
            return Self.text(500, "The times could not be calculated: \(error)")
        }
    }

    /// A 200 with `bytes`, or a 304 when `If-None-Match` names `tag`. `no-cache`: a browser keeps the
    /// file and asks each time whether it changed, so a new `praykit` reaches an open screen.
    private static func tagged(
        _ bytes: Data, type: String, tag: String, request: ServerAPI.Request
    ) -> ServerAPI.Response {
        var headers = securityHeaders
        headers["ETag"] = tag
        headers["Cache-Control"] = "no-cache"
        if let expected = request.header("If-None-Match"), AlAdhanRoutes.matches(expected, tag) {
            return ServerAPI.Response(status: 304, headers: headers)
        }
        headers["Content-Type"] = type
        return ServerAPI.Response(status: 200, headers: headers, body: bytes)
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
