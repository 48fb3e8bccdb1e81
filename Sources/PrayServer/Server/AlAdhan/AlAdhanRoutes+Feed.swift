import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - The calendar feed of a place

extension AlAdhanRoutes {
    /// The paths of the calendar feed of a place: an array, as comparing the path with two strings costs
    /// less than hashing it for a set, on every request.
    static let feedPaths: [String] = ["/calendar.ics", "/v1/calendar.ics"]

    /// `/calendar.ics`: a calendar feed (RFC 5545, ``PrayerFeed``) of the next ``PrayerFeed/days`` days
    /// from today in the place's zone, which calendar apps subscribe to by URL (`webcal://`). The place and
    /// the calculation are read as `/v1/calendar` reads them — `latitude` and `longitude` (or `city` and
    /// `country`, or `address`), `method`, `school`, `latitudeAdjustmentMethod`, `tune`, `timezonestring`
    /// and the rest — and PrayKit's own `iqama` (`fajr=+20,dhuhr=13:30`: an event lasts until its iqama)
    /// and `jumuah` (`13:15,14:00`: a Friday has a Jumu'ah event per time). The same parameters always
    /// give the same UIDs, so a calendar updates its events at each fetch. A 400 in plain text says what
    /// is wrong with a parameter. The answer holds until the place's midnight (the window's first day).
    func feed(_ request: ServerAPI.Request) -> (response: ServerAPI.Response, cache: Cache) {
        let query = AlAdhanQuery(request.query)
        do {
            let source: PlaceSource =
                query.given(.address) != nil ? .address : query.given(.city) != nil ? .city : .coordinates
            let place = try self.place(query, from: source)
            let settings = try AlAdhanSettings(query) { defaultMethod(for: place) }
            let iqama = try Self.iqama(request.query)
            var clock = ZoneClock(timeZone: place.timeZone)
            let (today, cache) = localDay(clock: &clock)
            let schedules = try schedules(from: today, days: PrayerFeed.days, place: place, settings: settings)
            let coordinates = place.coordinates
            let feed = PrayerFeed(
                name: "Prayer times — \(coordinates.latitude.formattedCompactly), "
                    + "\(coordinates.longitude.formattedCompactly)",
                coordinates: coordinates, location: nil,
                month: TimetableMonth(schedules: schedules, hijri: [], iqama: iqama), zone: place.timeZone,
                key: PrayerFeed.key("place:" + Self.canonical(request.query)),
                windowStart: Date(
                    timeIntervalSince1970: Double(AlAdhanTimings.instant(of: today, secondsIntoDay: 0, clock: &clock))))
            return (PrayerFeed.response(feed.text, filename: "prayer-times.ics", request: request), cache)
        } catch {
            log.debug("Feed refused", metadata: ["http.status": "\(error.status)"])
            return (DisplayRoutes.text(error.status, error.message), .none)
        }
    }

    /// The `iqama` and `jumuah` parameters as ``IqamaSettings``, `nil` when neither is given.
    private static func iqama(_ query: ServerAPI.Fields) throws(AlAdhanError) -> IqamaSettings? {
        let rules = query["iqama"]?.trimmedOfSpaces ?? ""
        let jumuah = query["jumuah"]?.trimmedOfSpaces ?? ""
        guard !rules.isEmpty || !jumuah.isEmpty else { return nil }
        do {
            return try IqamaSettings(parsing: rules, jumuah: jumuah)
        } catch {
            throw AlAdhanError(400, sentence("iqama or jumuah: " + error.message))
        }
    }

    /// The query as one text, its parameters sorted: the same parameters in any order give the same
    /// feed key.
    private static func canonical(_ query: ServerAPI.Fields) -> String {
        query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}
