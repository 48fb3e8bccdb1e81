import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The AlAdhan prayer-times API (api.aladhan.com/v1) as plain functions from a request value to a
/// response value, for ``ServerService``: the same paths, parameters and JSON shapes, answered from
/// PrayKit's own calculation, offline.
///
/// Every answer is AlAdhan's envelope, `{"code":200,"status":"OK","data":…}`; bad input is a 4xx in
/// the same envelope with a sentence in `data`. Answers for a fixed date and place never change, so
/// they carry an `ETag` and `Cache-Control: public, max-age=86400`, and `If-None-Match` gets a 304;
/// answers that depend on the current day or minute are cached until it ends.
///
/// ```swift
/// let routes = AlAdhanRoutes(
///     calculator: PrayerServiceAstronomical(log: log), hijri: hijri, qibla: qibla, clock: PrayClockSystem(), log: log)
/// let server = try ServerServiceMicroHTTPD(log: log).start(.init(port: 8080), handler: routes.handler)
/// ```
///
/// Routes: `/v1/timings[/{date}]`, `/v1/timingsByCity[/{date}]`, `/v1/timingsByAddress[/{date}]`,
/// `/v1/nextPrayer[/{date}]`, `/v1/nextPrayerByAddress[/{date}]`, `/v1/calendar[/{year}[/{month}]]`,
/// `/v1/calendarByCity…`, `/v1/calendarByAddress…`, `/v1/hijriCalendar…`, `/v1/hijriCalendarByCity…`,
/// `/v1/hijriCalendarByAddress…`, `/v1/gToH[/{date}]`, `/v1/hToG[/{date}]`,
/// `/v1/gToHCalendar/{month}/{year}`, `/v1/hToGCalendar/{month}/{year}`,
/// `/v1/islamicHolidaysByHijriYear/{year}`, `/v1/hijriHolidays/{day}/{month}`, `/v1/specialDays`,
/// `/v1/islamicMonths`, `/v1/nextHijriHoliday`, `/v1/currentIslamicYear`, `/v1/currentIslamicMonth`,
/// `/v1/islamicYearFromGregorianForRamadan/{year}`, `/v1/qibla/{latitude}/{longitude}`, `/v1/methods`,
/// `/v1/currentTime`, `/v1/currentDate`, `/v1/currentTimestamp` and `/status`. Each is also answered
/// without `/v1` (`/timings/{timestamp}`, `/calendarByCity`, `/gToH`), as older clients call it: the
/// same route, byte for byte.
public struct AlAdhanRoutes: ServerRoutes {
    /// A city asked for by `timingsByCity` and `calendarByCity`.
    public struct CityQuery: Hashable, Sendable {
        /// The city's name, as given: `London`.
        public let city: String
        /// The country, as given: a name or an ISO 3166 code (`GB`).
        public let country: String
        /// The state or region, when given.
        public let state: String?

        /// Creates a query.
        public init(city: String, country: String, state: String? = nil) {
            self.city = city
            self.country = country
            self.state = state
        }
    }

    /// A place found for a city: where it is, its zone and its country.
    public struct Place: Hashable, Sendable {
        /// The place.
        public let coordinates: Coordinates
        /// Its zone, with the name `meta.timezone` shows.
        public let zone: TimeZoneName
        /// Its country (ISO 3166-1 alpha-2), which chooses the method when a request names none; `nil`
        /// when unknown.
        public let countryCode: String?

        /// Creates a place.
        public init(coordinates: Coordinates, zone: TimeZoneName, countryCode: String? = nil) {
            self.coordinates = coordinates
            self.zone = zone
            self.countryCode = countryCode
        }

        /// The zone.
        var timeZone: TimeZone { zone.timeZone }
        /// The zone's name as `meta.timezone` shows it.
        var zoneName: String { zone.identifier }
    }

    /// What the API looks up beyond calculation: the zone and the country at a place, and cities and
    /// addresses by name. All are optional; without them a request gives `timezonestring` (else UTC is
    /// used, and `meta.timezone` says so), a request without `method` gets the Muslim World League, and
    /// the `…ByCity` and `…ByAddress` routes answer 400.
    public struct Lookups: Sendable {
        /// The zone at a place (offline boundaries), or `nil` when unknown.
        public var zone: (@Sendable (Coordinates) -> TimeZoneName?)?
        /// The country at a place (ISO 3166-1 alpha-2), or `nil` when unknown (at sea): with
        /// `CountryMethod`'s table it chooses the method of a request that names none.
        public var country: (@Sendable (Coordinates) -> String?)?
        /// The place a city names (a gazetteer), or `nil` when none matches; it throws a
        /// ``ValidationError`` when several places match equally well.
        public var city: (@Sendable (CityQuery) throws -> Place?)?
        /// The place a text names (`Makkah, Saudi Arabia`, `London`), found offline (a gazetteer), or
        /// `nil` when none matches; it throws a ``ValidationError`` when several places match equally
        /// well. The `…ByAddress` routes ask it for the `address`, then, when that finds nothing, for
        /// the address without its first parts (a street or a building before the city).
        public var address: (@Sendable (String) throws -> Place?)?

        /// Creates lookups.
        public init(
            zone: (@Sendable (Coordinates) -> TimeZoneName?)? = nil,
            country: (@Sendable (Coordinates) -> String?)? = nil,
            city: (@Sendable (CityQuery) throws -> Place?)? = nil,
            address: (@Sendable (String) throws -> Place?)? = nil
        ) {
            self.zone = zone
            self.country = country
            self.city = city
            self.address = address
        }

        /// The lookups of a ``LocationManager``: the zone at the coordinates, as AlAdhan gives it
        /// without `timezonestring`; the country there, by the rule of `praykit times`
        /// (``LocationManager/countryCode(at:)``, remembered for the last 16,384 places); and `city`,
        /// `state` and `country` as one query (`London, GB`) by its one rule for cities — the best
        /// match, or a refusal naming the places when several match equally well; and an `address` by
        /// the same rule.
        public init(_ location: LocationManager) {
            zone = { coordinates in try? location.timeZone(at: coordinates).zone }
            let countries = CountryCache()
            country = { coordinates in
                countries.country(at: coordinates) { (try? location.countryCode(at: $0)) ?? nil }
            }
            city = { query in
                let text = [query.city, query.state, query.country].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: ", ")
                return try Self.place(location.city(named: text))
            }
            address = { text in try Self.place(location.city(named: text)) }
        }

        /// The API's place of a gazetteer's place, or `nil` without one (or with a zone the system does
        /// not know).
        private static func place(_ place: PrayCore.Place?) -> Place? {
            guard let place, let zone = TimeZoneName(place.timeZoneIdentifier) else { return nil }
            return Place(coordinates: place.coordinates, zone: zone, countryCode: place.countryCode)
        }

        /// No lookups: zones come from `timezonestring` (else UTC), the method from `method` (else the
        /// Muslim World League), and cities are not known.
        public static let none = Lookups()
    }

    let calculator: any PrayerCalculator
    let hijri: any HijriService
    let qibla: any QiblaService
    let lookups: Lookups
    let clock: any PrayClock
    let log: LogManager
    /// The calendars answered so far (a month's or a year's times: tens of microseconds to compute,
    /// asked again and again by the pages and screens that show them), kept for a day, and the calendar
    /// feeds of places (milliseconds to make, fetched again by every subscriber's calendar app), kept
    /// until the place's midnight; `nil` when none are kept (the benchmark measures computing them).
    let calendars: ResponseCache?

    /// Creates the routes.
    /// - Parameters:
    ///   - calculator: Calculates the times (synchronously, on the server's threads).
    ///   - hijri: Converts dates; its Umm al-Qura calendar answers `calendarMethod` HJCoSA, UAQ and
    ///     DIYANET, its tabular calendar MATHEMATICAL.
    ///   - qibla: Finds the direction of the Kaaba.
    ///   - lookups: The zone at a place and cities by name, when available.
    ///   - clock: "Now", for requests without a date and `currentTime`.
    ///   - log: The logger: refused requests at `debug`.
    public init(
        calculator: any PrayerCalculator, hijri: any HijriService, qibla: any QiblaService,
        lookups: Lookups = .none, clock: any PrayClock, log: LogManager
    ) {
        self.init(
            calculator: calculator, hijri: hijri, qibla: qibla, lookups: lookups, clock: clock, log: log,
            calendarCacheBytes: 32 << 20)
    }

    /// Creates the routes, keeping at most `calendarCacheBytes` of calendars (0: none).
    package init(
        calculator: any PrayerCalculator, hijri: any HijriService, qibla: any QiblaService,
        lookups: Lookups = .none, clock: any PrayClock, log: LogManager, calendarCacheBytes: Int
    ) {
        self.calculator = calculator
        self.hijri = hijri
        self.qibla = qibla
        self.lookups = lookups
        self.clock = clock
        self.log = log
        calendars = calendarCacheBytes > 0 ? ResponseCache(maximumBytes: calendarCacheBytes) : nil
    }

    /// Answers one request. Never traps and never answers 500 for anything a client sends. A request
    /// the server refused (``ServerAPI/Request/refusal``) gets the refusal in AlAdhan's envelope.
    public func respond(to request: ServerAPI.Request) -> ServerAPI.Response {
        if let refusal = request.refusal { return failure(AlAdhanError(refusal.status, refusal.message)) }
        switch request.method {
        case "GET", "HEAD": break
        case "OPTIONS":
            return ServerAPI.Response(
                status: 204,
                headers: Self.cors.merging(
                    [
                        "Allow": Self.allowed, "Access-Control-Allow-Methods": Self.allowed,
                        "Cache-Control": "public, max-age=86400",
                    ],
                    uniquingKeysWith: { $1 }))
        default:
            return failure(
                AlAdhanError(405, "Method \(request.method) is not allowed: use GET."), extra: ["Allow": Self.allowed])
        }
        // The request without its condition, for an answer kept in the cache of calendars (made only
        // for those: removing a header copies the request's table of them).
        func unconditional() -> ServerAPI.Request {
            var unconditional = request
            unconditional.headers["if-none-match"] = nil
            return unconditional
        }
        if Self.feedPaths.contains(request.path) {
            guard let calendars else { return feed(request).response }
            // The feed's window starts today in the place's zone: the same bytes until its midnight.
            let now = clock.now()
            return calendars.response(for: request, key: Self.cacheKey(request), now: now) {
                let (response, cache) = feed(unconditional())
                guard case .seconds(let seconds) = cache else { return (response, now) }
                // `seconds` counts from the whole second of the feed's own reading of the clock (this
                // one's or later): from this one's whole second, the entry ends at midnight or before.
                return (
                    response, Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + Double(seconds))
                )
            }
        }
        let words = Self.words(of: request.path)
        guard let calendars, Self.isCalendar(words) else { return answer(words, request: request).response }
        // A calendar: from the cache while its day lasts, a 304 when the client has it already.
        let now = clock.now()
        return calendars.response(for: request, key: Self.cacheKey(request), now: now) {
            // Only a fixed month's or year's (its text never changes) is kept, for a day: one that
            // depends on today would carry a max-age that shrinks while it is kept.
            let (response, cache) = answer(words, request: unconditional())
            return (response, now.addingTimeInterval(cache == .immutable ? 86_400 : 0))
        }
    }

    /// The answer to a request (already checked for refusal and method) and how long it holds.
    private func answer(_ words: [String], request: ServerAPI.Request) -> (response: ServerAPI.Response, cache: Cache) {
        do {
            let answer = try route(words, query: AlAdhanQuery(request.query))
            return (success(answer, request: request), answer.cache)
        } catch {
            log.debug("Request refused", metadata: ["http.path": request.path, "http.status": "\(error.status)"])
            return (failure(error), .none)
        }
    }

    /// Whether the path is one of the calendars' (`/v1/calendar…`, `/v1/hijriCalendar…`, and the same
    /// without `/v1`).
    static func isCalendar(_ words: [String]) -> Bool {
        guard let name = words.first == "v1" ? words.dropFirst().first : words.first else { return false }
        return name.hasPrefix("calendar") || name.hasPrefix("hijriCalendar")
    }

    /// A request as ``ResponseCache`` keys it: the path and every query parameter, sorted by name, as
    /// sent (percent-decoded), nothing rounded.
    static func cacheKey(_ request: ServerAPI.Request) -> String {
        var key = request.path
        for (name, value) in request.query.sorted(by: { $0.key < $1.key }) {
            // Lengths first: no name or value can be mistaken for a separator.
            key += " \(name.utf8.count):\(name)=\(value.utf8.count):\(value)"
        }
        return key
    }

    // MARK: - Routing

    /// The path's words between slashes (empty ones dropped), split on the bytes: splitting on
    /// characters would break the text into graphemes first, and a generic split is several times
    /// slower than this loop on the server's most common paths.
    static func words(of path: String) -> [String] {
        var words: [String] = []
        words.reserveCapacity(4)
        var path = path
        path.withUTF8 { bytes in
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
                start = index + 1
            }
        }
        return words
    }

    /// What a route answers: the `data` member and how long it may be cached.
    struct Answer {
        let data: JSONValue
        let cache: Cache
        /// The whole body, envelope included, when the route wrote it itself (``beginEnvelope(_:)``);
        /// `data` is then not used.
        var body: Data?

        /// An answer whose `data` the envelope is written around.
        init(data: JSONValue, cache: Cache) {
            self.data = data
            self.cache = cache
        }

        /// An answer whose body, envelope and all, the route has written.
        init(body: Data, cache: Cache) {
            self.data = .null
            self.cache = cache
            self.body = body
        }
    }

    /// How long an answer may be cached.
    enum Cache: Equatable {
        /// Never changes: a fixed date and place.
        case immutable
        /// Changes after this many seconds (the current day or minute ends).
        case seconds(Int)
        /// Must not be cached.
        case none
    }

    private func route(_ words: [String], query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        if words.count == 1, words[0] == "status" {
            return Answer(data: .object([("status", .string("alive"))]), cache: .none)
        }
        // One table for `/v1/…` and AlAdhan's older unversioned paths (`/timings/{timestamp}`,
        // `/calendarByCity`, `/gToH`, …), which MagicMirror modules and older Home Assistant versions
        // still call and api.aladhan.com redirects to `/v1`: the same route, answered without the trip.
        let start = words.first == "v1" ? 1 : 0
        guard words.count > start else { throw Self.notFound(words) }
        let name = words[start]
        // The route most requests take, before the arrays of the others are made.
        if name == "timings", words.count - start <= 2 {
            return try timings(
                date: words.count - start == 2 ? words[start + 1] : nil, query: query, from: .coordinates)
        }
        let rest = Array(words.dropFirst(start + 1))
        switch (name, rest.count) {
        case ("timingsByCity", 0...1): return try timings(date: rest.first, query: query, from: .city)
        case ("timingsByAddress", 0...1): return try timings(date: rest.first, query: query, from: .address)
        case ("nextPrayer", 0...1): return try nextPrayer(date: rest.first, query: query, from: .coordinates)
        case ("nextPrayerByAddress", 0...1): return try nextPrayer(date: rest.first, query: query, from: .address)
        case ("calendar", 0...2): return try calendar(rest, query: query, byHijri: false, from: .coordinates)
        case ("calendarByCity", 0...2): return try calendar(rest, query: query, byHijri: false, from: .city)
        case ("calendarByAddress", 0...2): return try calendar(rest, query: query, byHijri: false, from: .address)
        case ("hijriCalendar", 0...2): return try calendar(rest, query: query, byHijri: true, from: .coordinates)
        case ("hijriCalendarByCity", 0...2): return try calendar(rest, query: query, byHijri: true, from: .city)
        case ("hijriCalendarByAddress", 0...2): return try calendar(rest, query: query, byHijri: true, from: .address)
        case ("gToH", 0...1): return try gregorianToHijri(rest.first ?? query.given(.date), query)
        case ("hToG", 0...1): return try hijriToGregorian(rest.first ?? query.given(.date), query)
        case ("gToHCalendar", 2): return try gregorianToHijriCalendar(month: rest[0], year: rest[1], query)
        case ("hToGCalendar", 2): return try hijriToGregorianCalendar(month: rest[0], year: rest[1], query)
        case ("islamicHolidaysByHijriYear", 1): return try holidays(ofHijriYear: rest[0], query)
        case ("hijriHolidays", 2): return try holidays(day: rest[0], month: rest[1])
        case ("specialDays", 0): return Answer(data: Self.specialDayList, cache: .immutable)
        case ("islamicMonths", 0): return Answer(data: Self.islamicMonthList, cache: .immutable)
        case ("nextHijriHoliday", 0): return try nextHijriHoliday(query)
        case ("currentIslamicYear", 0), ("currentIslamicMonth", 0): return try currentIslamic(name, query)
        case ("islamicYearFromGregorianForRamadan", 1): return try islamicYearForRamadan(rest[0])
        case ("qibla", 2): return try qiblaDirection(latitude: rest[0], longitude: rest[1])
        case ("methods", 0): return methods()
        case ("currentTime", 0), ("currentDate", 0), ("currentTimestamp", 0): return try current(name, query)
        default: throw Self.notFound(words)
        }
    }

    private static func notFound(_ words: [String]) -> AlAdhanError {
        AlAdhanError(404, "No route /\(words.joined(separator: "/")): see the AlAdhan API documentation for its paths.")
    }

    // MARK: - Responses

    static let allowed = "GET, HEAD, OPTIONS"
    static let cors: ServerAPI.Fields = ["Access-Control-Allow-Origin": "*"]

    /// AlAdhan's names for the statuses this API answers with.
    static func statusName(_ status: Int) -> StaticString {
        switch status {
        case 200: "OK"
        case 400: "BAD_REQUEST"
        case 404: "NOT_FOUND"
        case 405: "METHOD_NOT_ALLOWED"
        case 413: "PAYLOAD_TOO_LARGE"
        case 414: "URI_TOO_LONG"
        case 431: "REQUEST_HEADER_FIELDS_TOO_LARGE"
        default: "SERVER_ERROR"
        }
    }

    private func success(_ answer: Answer, request: ServerAPI.Request) -> ServerAPI.Response {
        let body = answer.body ?? Self.envelope(status: 200, data: answer.data)
        // The fields made at once, each name known to be new: room for the tag, nothing compared.
        var headers = ServerAPI.Fields(minimumCapacity: 4)
        headers.appendNew("Access-Control-Allow-Origin", "*")
        headers.appendNew("Content-Type", "application/json")
        switch answer.cache {
        case .immutable: headers.appendNew("Cache-Control", "public, max-age=86400")
        case .seconds(let seconds): headers.appendNew("Cache-Control", "public, max-age=\(max(1, seconds))")
        case .none: headers.appendNew("Cache-Control", "no-store")
        }
        guard answer.cache != .none else { return ServerAPI.Response(status: 200, headers: headers, body: body) }
        let tag = Self.entityTag(body)
        headers.appendNew("ETag", tag)
        let response = ServerAPI.Response(status: 200, headers: headers, body: body)
        if let expected = request.headers["if-none-match"], Self.matches(expected, tag) {
            return .notModified(standingFor: response)
        }
        return response
    }

    private func failure(_ error: AlAdhanError, extra: ServerAPI.Fields = [:]) -> ServerAPI.Response {
        let body = Self.envelope(status: error.status, data: .string(error.message))
        var headers = Self.cors.merging(extra, uniquingKeysWith: { $1 })
        headers["Content-Type"] = "application/json"
        headers["Cache-Control"] = "no-store"
        return ServerAPI.Response(status: error.status, headers: headers, body: body)
    }

    /// AlAdhan's envelope, `{"code":200,"status":"OK","data":…}`, as the body of a response.
    static func envelope(status: Int, data: JSONValue) -> Data {
        var json = JSONWriter()
        beginEnvelope(&json, status: status)
        data.write(to: &json)
        json.endObject()
        return json.takeData()
    }

    /// Writes the start of AlAdhan's envelope, `{"code":200,"status":"OK","data":`: the `data` value
    /// comes next, then ``JSONWriter/endObject()``. A route that writes its answer straight after it
    /// makes the body in one buffer (``Answer/init(body:cache:)``).
    static func beginEnvelope(_ json: inout JSONWriter, status: Int = 200) {
        json.beginObject()
        json.key("code")
        json.int(status)
        json.key("status")
        json.string(statusName(status))
        json.key("data")
    }

    /// A strong entity tag: a 64-bit hash of the body as 11 characters of base64url in quotes, 13
    /// bytes, which a `String` holds without an allocation. The hash is the folded multiplication of
    /// wyhash (the high and low halves of a 128-bit product, XORed) over 16 bytes at a time in four
    /// independent lanes, the last bytes zero-padded, the lanes and the length then mixed with the
    /// finaliser of MurmurHash3.
    static func entityTag(_ body: Data) -> String {
        let lanes = body.withUnsafeBytes(hashLanes)
        let hash = mix(fold(lanes.0 ^ tagKeys.1, lanes.1 ^ tagKeys.0) ^ UInt64(body.count))
        return String(unsafeUninitializedCapacity: 13) { text in
            text[0] = UInt8(ascii: "\"")
            // Six bits a character, the first of the eleven taking the top four.
            for index in 0..<11 {
                text[index + 1] = tagAlphabet[Int((hash >> UInt64(60 - 6 * index)) & 63)]
            }
            text[12] = UInt8(ascii: "\"")
            return 13
        }
    }

    /// The lanes of ``entityTag(_:)``'s hash over `bytes`, four folded into two. A function of its own,
    /// the lanes its locals: captured by a closure, they were loaded and stored at every step. Four
    /// lanes rather than two: each lane waits for its last multiplication, and a month's 60 KB took
    /// twice as long in two.
    private static func hashLanes(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let keys = tagKeys
        var (a, b, c, d) = (keys.2, keys.3, keys.2 ^ keys.1, keys.3 ^ keys.0)
        let count = bytes.count
        var index = 0
        if let start = bytes.baseAddress {
            while index + 64 <= count {
                let block = start + index
                a = fold(Self.word(block, 0) ^ keys.0, Self.word(block, 1) ^ a)
                b = fold(Self.word(block, 2) ^ keys.1, Self.word(block, 3) ^ b)
                c = fold(Self.word(block, 4) ^ keys.0, Self.word(block, 5) ^ c)
                d = fold(Self.word(block, 6) ^ keys.1, Self.word(block, 7) ^ d)
                index += 64
            }
        }
        // The last 0…63 bytes, zero-padded to eight words.
        var last: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[index...])) }
        return (
            fold(last.0 ^ keys.0, last.1 ^ a) ^ fold(last.4 ^ keys.0, last.5 ^ c),
            fold(last.2 ^ keys.1, last.3 ^ b) ^ fold(last.6 ^ keys.1, last.7 ^ d)
        )
    }

    /// The `index`th eight bytes at `block`, unaligned.
    @inline(__always)
    private static func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt64 {
        block.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
    }

    /// The high and low halves of the 128-bit product, XORed: every bit of each factor reaches the
    /// middle bits of the result. The keys' top bytes never occur in UTF-8 (0xF8 and up), so a word
    /// XORed with a key, the first factor of each step, is never zero for a JSON body.
    private static func fold(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }

    /// MurmurHash3's 64-bit finaliser: a bijection whose every output bit depends on every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var hash = (value ^ (value >> 33)) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 33)
    }

    /// The hash's constants: wyhash's secret with the top byte of each made 0xF8–0xFF.
    private static let tagKeys: (UInt64, UInt64, UInt64, UInt64) = (
        0xfa07_61d6_478b_d642, 0xfe70_37ed_1a0b_428d, 0xf8eb_c6af_09c8_8c6e, 0xfd89_965c_c753_74cc
    )

    /// The 64 characters of base64url (RFC 4648 §5), none of which needs quoting in a header.
    private static let tagAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Whether an `If-None-Match` value names `tag` (or is `*`); weak tags compare by their opaque part.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var candidate = String(item).trimmedOfSpaces
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag
        }
    }

    /// A refusal for what a service threw about the request.
    static func refusal(_ error: any Error) -> AlAdhanError {
        switch error {
        case let error as AlAdhanError: error
        case let error as ValidationError: AlAdhanError(400, sentence(error.message))
        case let error as PrayError: AlAdhanError(400, sentence(error.message))
        case let error as HijriError: AlAdhanError(400, sentence(error.message))
        default: AlAdhanError(400, sentence("\(error)"))
        }
    }

    /// `text` with a capital first letter and a full stop.
    static func sentence(_ text: String) -> String {
        let capitalized = text.prefix(1).uppercased() + text.dropFirst()
        return capitalized.hasSuffix(".") ? capitalized : capitalized + "."
    }
}
