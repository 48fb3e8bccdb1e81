import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Timings and calendars

extension AlAdhanRoutes {
    /// `/v1/timings/{date}` (and `?date=`): one day's `timings`, `date` and `meta`. The date is
    /// `DD-MM-YYYY`, a UNIX timestamp (its day in the zone), `today` or `tomorrow`; without one (or with
    /// a JavaScript `Date`'s text), today in the zone.
    func timings(date text: String?, query: AlAdhanQuery, from source: PlaceSource) throws(AlAdhanError) -> Answer {
        let place = try self.place(query, from: source)
        let settings = try AlAdhanSettings(query) { defaultMethod(for: place) }
        var clock = ZoneClock(zone: place.zone)
        let (date, cache) = try day(text ?? query.given(.date), clock: &clock)
        let schedules = try schedules(from: date, days: 1, place: place, settings: settings)
        let schedule = schedules[0]
        let nights = try sameDayNights(schedules, place: place, settings: settings)
        let hijriDay = try hijriDays(from: date, days: 1, settings: settings)[0]
        // AlAdhan's timestamp of a day is 07:00 (its midnight plus seven hours).
        let timestamp = AlAdhanTimings.instant(of: date, secondsIntoDay: 0, clock: &clock) + 25_200
        var json = JSONWriter()
        Self.beginEnvelope(&json)
        json.beginObject()
        json.key("timings")
        AlAdhanTimings.writeTimings(
            schedule, tune: settings.tune, iso8601: settings.iso8601, clock: &clock, night: nights?[0], to: &json)
        json.key("date")
        AlAdhanDate.writeDate(date, timestamp: timestamp, hijri: hijriDay, hijriFirst: true, to: &json)
        json.key("meta")
        settings.writeMeta(coordinates: place.coordinates, zoneName: place.zoneName, to: &json)
        json.endObject()
        json.endObject()  // the envelope
        return Answer(body: json.takeData(), cache: cache)
    }

    /// `/v1/calendar/{year}/{month}`, `/v1/calendar/{year}` (the whole year, by month) and
    /// `/v1/calendar?year=&month=&annual=`; with `byHijri`, the same for a Hijri year and month.
    func calendar(
        _ path: [String], query: AlAdhanQuery, byHijri: Bool, from source: PlaceSource
    ) throws(AlAdhanError) -> Answer {
        let place = try self.place(query, from: source)
        let settings = try AlAdhanSettings(query) { defaultMethod(for: place) }
        let annual = path.count == 1 || (path.isEmpty && query[.annual] == "true")
        var clock = ZoneClock(zone: place.zone)
        let today = localDay(clock: &clock)
        let current = try byHijri ? hijriDays(from: today.date, days: 1, settings: settings)[0] : nil
        let yearText = path.first ?? query.given(.year)
        let monthText = path.count == 2 ? path[1] : query.given(.month)
        let year = try Self.number(yearText, name: "year", range: 1...9999) ?? current?.hijri.year ?? today.date.year
        let month =
            annual
            ? 1
            : try Self.number(monthText, name: "month", range: 1...12) ?? current?.hijri.monthNumber ?? today.date.month
        // A calendar whose year or month was left to "now" changes when the month does.
        let cache: Cache = yearText == nil || (!annual && monthText == nil) ? today.cache : .immutable
        let meta = settings.meta(coordinates: place.coordinates, zoneName: place.zoneName)
        // The whole body in one buffer, sized for the month or the year: no copy of a month's text.
        var json = JSONWriter(capacity: (annual ? 12 : 1) * 31 * 1900 + 256)
        func entries(_ month: Int, to json: inout JSONWriter) throws(AlAdhanError) {
            let dates =
                try byHijri ? hijriMonth(month, of: year, settings: settings).map(\.gregorian) : Self.days(month, year)
            try calendarEntries(dates, place: place, settings: settings, meta: meta, clock: &clock, to: &json)
        }
        Self.beginEnvelope(&json)
        if annual {
            json.beginObject()
            for month in 1...12 {
                json.key(text: String(month))
                try entries(month, to: &json)
            }
            json.endObject()
        } else {
            try entries(month, to: &json)
        }
        json.endObject()  // the envelope
        return Answer(body: json.takeData(), cache: cache)
    }

    /// The entries of consecutive civil days: `timings` (with the zone's abbreviation, as AlAdhan's
    /// calendars write them), `date` and `meta`.
    private func calendarEntries(
        _ dates: [CivilDate], place: Place, settings: AlAdhanSettings, meta: JSONValue, clock: inout ZoneClock,
        to json: inout JSONWriter
    ) throws(AlAdhanError) {
        guard let first = dates.first else {
            json.beginArray()
            json.endArray()
            return
        }
        let schedules = try self.schedules(from: first, days: dates.count, place: place, settings: settings)
        let nights = try sameDayNights(schedules, place: place, settings: settings)
        let days = try hijriDays(from: first, days: dates.count, settings: settings)
        // The zone's abbreviation changes with its offset only: the times' text is made again when the
        // offset changes.
        var abbreviation = (offset: Int.min, template: AlAdhanTimings.Template.plain)
        // The same `meta` for every day: its text made once.
        let meta = meta.renderedBytes
        json.beginArray()
        // Each day's schedule and Hijri date read in place: indexing the arrays copied each (and
        // retained what it holds) to hand it on.
        schedules.withUnsafeBufferPointer { schedules in
            days.withUnsafeBufferPointer { days in
                for (index, date) in dates.enumerated() {
                    // AlAdhan dates each calendar day at 09:01:01 local time.
                    let timestamp = AlAdhanTimings.instant(of: date, secondsIntoDay: 32_461, clock: &clock)
                    let offset = clock.offset(at: Double(timestamp))
                    if offset != abbreviation.offset {
                        let text = Array(AlAdhanTimings.abbreviation(offset: offset, named: place.zoneName).utf8)
                        abbreviation = (offset, AlAdhanTimings.Template(abbreviation: text))
                    }
                    json.beginObject()
                    json.key("timings")
                    AlAdhanTimings.writeTimings(
                        schedules[index], tune: settings.tune, iso8601: settings.iso8601, clock: &clock,
                        template: abbreviation.template, night: nights?[index], to: &json)
                    json.key("date")
                    AlAdhanDate.writeDate(date, timestamp: timestamp, hijri: days[index], hijriFirst: false, to: &json)
                    json.key("meta")
                    json.raw(meta)
                    json.endObject()
                }
            }
        }
        json.endArray()
    }

    // MARK: - Helpers

    /// The method of a request that names none: the one the place's country customarily follows
    /// (`CountryMethod`, the rule of `praykit times`), by AlAdhan's number; the Muslim World League when
    /// the country is unknown.
    func defaultMethod(for place: Place) -> AlAdhanMethod {
        let country = place.countryCode ?? lookups.country?(place.coordinates)
        return AlAdhanMethod.forCountry(country, latitude: place.coordinates.latitude)
    }

    /// With `midnightDay=same`, midnight and the night's thirds of each schedule's day measured as
    /// AlAdhan measures them (to the same day's sunrise or fajr, 24 hours on); `nil` otherwise.
    func sameDayNights(
        _ schedules: [PrayerSchedule], place: Place, settings: AlAdhanSettings
    ) throws(AlAdhanError) -> [AlAdhanTimings.Night?]? {
        guard settings.sameDayNight, let first = schedules.first else { return nil }
        // The day before the first gives the first day's own sunrise (or fajr): the end of its night.
        let before = try self.schedules(from: first.date.adding(days: -1), days: 1, place: place, settings: settings)
        let measure: NightMeasure = settings.parameters.night == .sunsetToFajr ? .sunsetToFajr : .sunsetToSunrise
        return zip(before + schedules, schedules).map { previous, current in
            AlAdhanTimings.Night(previous: previous, current: current, measure: measure)
        }
    }

    /// Where a route's place comes from.
    enum PlaceSource {
        /// `latitude` and `longitude`: `/v1/timings`.
        case coordinates
        /// `city`, `country` and `state`: the `…ByCity` routes.
        case city
        /// `address`: the `…ByAddress` routes.
        case address
    }

    /// The place of a request: `latitude` and `longitude`, `city` and `country`, or `address`, the last
    /// two through the gazetteer; its zone is `timezonestring`, else the zone at the place (the
    /// gazetteer's for a city or an address), else UTC.
    func place(_ query: AlAdhanQuery, from source: PlaceSource) throws(AlAdhanError) -> Place {
        let given = try query.given(.timezonestring).map { text throws(AlAdhanError) in
            try Self.zone(named: text, parameter: "timezonestring")
        }
        switch source {
        case .coordinates: break
        case .city: return try cityPlace(query, zone: given)
        case .address: return try addressPlace(query, zone: given)
        }
        guard let latitudeText = query.given(.latitude),
            let longitudeText = query.given(.longitude)
        else { throw AlAdhanError("Please specify a latitude and longitude.") }
        let coordinates = try Self.coordinates(latitudeText, longitudeText)
        return Place(coordinates: coordinates, zone: given ?? lookups.zone?(coordinates) ?? .utc)
    }

    /// The place `city`, `country` and `state` name, in the zone `timezonestring` gave, if any.
    private func cityPlace(_ query: AlAdhanQuery, zone given: TimeZoneName?) throws(AlAdhanError) -> Place {
        guard let city = query.given(.city), let country = query.given(.country)
        else { throw AlAdhanError("Please specify a city and country.") }
        guard let lookup = lookups.city else {
            throw AlAdhanError(
                "This server has no gazetteer to find cities: use /v1/timings with latitude, longitude and "
                    + "timezonestring.")
        }
        let search = CityQuery(city: city, country: country, state: query.given(.state))
        let found: Place?
        do {
            found = try lookup(search)
        } catch {
            throw Self.refusal(error)
        }
        guard let found else { throw AlAdhanError("Unable to find the city '\(city)' in '\(country)'.") }
        return given.map { Place(coordinates: found.coordinates, zone: $0, countryCode: found.countryCode) }
            ?? found
    }

    /// The place `address` names, in the zone `timezonestring` gave, if any.
    private func addressPlace(_ query: AlAdhanQuery, zone given: TimeZoneName?) throws(AlAdhanError) -> Place {
        // An address of commas and spaces alone names nothing either.
        guard let address = query.given(.address), address.contains(where: { !" ,،，\t".contains($0) }) else {
            throw AlAdhanError("Please specify an address.")
        }
        guard let lookup = lookups.address else {
            throw AlAdhanError(
                "This server has no gazetteer to find addresses: use /v1/timings with latitude, longitude and "
                    + "timezonestring.")
        }
        let found: Place?
        do {
            found = try Self.addressPlace(address, lookup: lookup)
        } catch {
            throw Self.refusal(error)
        }
        guard let found else {
            throw AlAdhanError(
                "Unable to geocode the address '\(address)' offline: this server finds cities in its gazetteer, so "
                    + "give a city, or a city and its country or region, such as 'Makkah, Saudi Arabia'.")
        }
        return given.map { Place(coordinates: found.coordinates, zone: $0, countryCode: found.countryCode) } ?? found
    }

    /// The place an address names, by `lookup` (the gazetteer's rule for one city): the whole address,
    /// else, when it has three or more comma-separated parts and the whole finds nothing, the address
    /// without its first part (a street or a building), and so on while two parts remain
    /// (`Masjid al-Haram, Makkah, Saudi Arabia` is `Makkah, Saudi Arabia`). A geocoder reads a street
    /// address; the offline gazetteer knows cities, regions and countries.
    /// - Throws: What `lookup` throws (several places match equally well, or a part names a country).
    static func addressPlace(_ text: String, lookup: (String) throws -> Place?) throws -> Place? {
        if let found = try lookup(text) { return found }
        var parts = text.split { $0 == "," || $0 == "،" || $0 == "，" }.map { String($0).trimmedOfSpaces }.filter {
            !$0.isEmpty
        }
        while parts.count > 2 {
            parts.removeFirst()
            if let found = try lookup(parts.joined(separator: ", ")) { return found }
        }
        return nil
    }

    /// Coordinates from text.
    /// - Throws: ``AlAdhanError`` for text that is not a number in range.
    static func coordinates(_ latitude: String, _ longitude: String) throws(AlAdhanError) -> Coordinates {
        guard let lat = DecimalText.double(latitude), let lon = DecimalText.double(longitude), lat.isFinite,
            lon.isFinite
        else {
            throw AlAdhanError("Please specify a valid latitude and longitude (decimal degrees).")
        }
        do {
            return try Coordinates(latitude: lat, longitude: lon)
        } catch {
            throw refusal(error)
        }
    }

    /// A zone by the one parser of PrayKit (``TimeZoneName``): every name of the tz database,
    /// canonical or alias, in any case; `UTC`; an offset such as `+03:00`.
    /// - Throws: ``AlAdhanError`` for any other text.
    static func zone(named text: String, parameter: String) throws(AlAdhanError) -> TimeZoneName {
        if let zone = zones.read({ $0[text] }) { return zone }
        guard let zone = TimeZoneName(text) else {
            throw AlAdhanError("Please specify a valid \(parameter) (an IANA time zone such as Europe/London).")
        }
        zones.write { zones in
            if zones.count >= zoneCapacity { zones.removeAll(keepingCapacity: true) }
            zones[text] = zone
        }
        return zone
    }

    /// The zones named so far, by the text as sent: parsing a name and asking Foundation for the zone
    /// cost about a microsecond, and a server sees the same few names again and again. The names of
    /// the tz database and their spellings are a few thousand; beyond ``zoneCapacity`` the cache
    /// starts again.
    private static let zones = ReadMostly<[String: TimeZoneName]>([:])
    private static let zoneCapacity = 4096

    /// Today on the zone's clock, and how long that answer holds: until the zone's next midnight.
    func localDay(clock zoneClock: inout ZoneClock) -> (date: CivilDate, cache: Cache) {
        let now = Int(clock.now().timeIntervalSince1970.rounded(.down))
        let local = now + zoneClock.offset(at: Double(now))
        let date = CivilDate(daysSince1970: CivilDate.dayNumber(localSeconds: Double(local)))
        let midnight = AlAdhanTimings.instant(of: date.adding(days: 1), secondsIntoDay: 0, clock: &zoneClock)
        return (date, .seconds(min(86_400, max(1, midnight - now))))
    }

    /// The civil day of a `DD-MM-YYYY` date or a UNIX timestamp (on the zone's clock), today or
    /// tomorrow for the words `today` and `tomorrow`, or today without one or with the text of a
    /// JavaScript `Date` (``isJavaScriptDateText(_:)``).
    /// - Throws: ``AlAdhanError`` for any other text or a day that does not exist.
    func day(_ text: String?, clock: inout ZoneClock) throws(AlAdhanError) -> (CivilDate, Cache) {
        guard let text else { return localDay(clock: &clock) }
        // MagicMirror's MMM-MyPrayerTimes puts `new Date()` in the path, made once when the mirror
        // starts and sent again every hour; api.aladhan.com reads a date it cannot parse as today, and
        // the module shows the answer as today's. Only this shape is read so: any other is refused.
        if Self.isJavaScriptDateText(text) { return localDay(clock: &clock) }
        // MagicMirror's MMM-PrayerTimes (atikur-rabbi) asks for `date=tomorrow` beside today's times,
        // and shows the answer as tomorrow's: the word is read as it says (api.aladhan.com gives today).
        if text == "today" || text == "tomorrow" {
            let today = localDay(clock: &clock)
            return (text == "today" ? today.date : today.date.adding(days: 1), today.cache)
        }
        if Self.isTimestamp(text), let seconds = Int(text) {
            let local = seconds + clock.offset(at: Double(seconds))
            let days = CivilDate.dayNumber(localSeconds: Double(local))
            guard (CivilDate.first.daysSince1970...CivilDate.last.daysSince1970).contains(days) else {
                throw AlAdhanError("The timestamp \(text) is outside the years 1 to 9999.")
            }
            return (CivilDate(daysSince1970: days), .immutable)
        }
        return (try Self.gregorianDate(text, status: 400), .immutable)
    }

    /// A Gregorian `DD-MM-YYYY` date (one-digit day and month accepted).
    /// - Throws: ``AlAdhanError`` with `status` for another shape or a day that does not exist.
    static func gregorianDate(_ text: String, status: Int) throws(AlAdhanError) -> CivilDate {
        guard let (day, month, year) = dayMonthYear(text, yearDigits: 4...4) else {
            throw AlAdhanError(status, "Invalid date '\(text)': use DD-MM-YYYY, such as 01-03-2027.")
        }
        do {
            return try CivilDate(year: year, month: month, day: day)
        } catch {
            throw AlAdhanError(status, "Invalid date '\(text)': \(error.message).")
        }
    }

    /// The numbers of `D-M-Y`: one or two digits of day and month, `yearDigits` digits of year.
    static func dayMonthYear(_ text: String, yearDigits: ClosedRange<Int>) -> (Int, Int, Int)? {
        // One pass over the bytes (the server reads a date on most requests): three runs of digits
        // between two hyphens.
        var text = text
        return text.withUTF8 { bytes in dayMonthYear(bytes, yearDigits: yearDigits) }
    }

    /// The numbers of `D-M-Y` in UTF-8 (over the bytes in place: String's own iterator cost more than
    /// the reading).
    private static func dayMonthYear(
        _ bytes: UnsafeBufferPointer<UInt8>, yearDigits: ClosedRange<Int>
    ) -> (Int, Int, Int)? {
        var numbers = (0, 0, 0)
        var lengths = (0, 0, 0)
        var part = 0
        for byte in bytes {
            if byte == UInt8(ascii: "-") {
                part += 1
                guard part < 3 else { return nil }
                continue
            }
            guard (48...57).contains(byte) else { return nil }
            let digit = Int(byte - 48)
            // A part longer than any accepted is refused at once, before its number could overflow.
            switch part {
            case 0:
                guard lengths.0 < 2 else { return nil }
                (numbers.0, lengths.0) = (numbers.0 * 10 + digit, lengths.0 + 1)
            case 1:
                guard lengths.1 < 2 else { return nil }
                (numbers.1, lengths.1) = (numbers.1 * 10 + digit, lengths.1 + 1)
            default:
                guard lengths.2 < yearDigits.upperBound else { return nil }
                (numbers.2, lengths.2) = (numbers.2 * 10 + digit, lengths.2 + 1)
            }
        }
        guard part == 2, (1...2).contains(lengths.0), (1...2).contains(lengths.1), yearDigits.contains(lengths.2)
        else { return nil }
        return numbers
    }

    /// Whether `text` is what JavaScript's `Date.prototype.toString()` writes:
    /// `Wed Dec 02 2026 18:12:43 GMT+0100 (Central European Standard Time)` (the zone's name optional).
    static func isJavaScriptDateText(_ text: String) -> Bool {
        // Six parts of 3, 3, 2, 4, 8 and 8 characters and five spaces: a date (the text of nearly every
        // request that gives one) is refused before it is split.
        guard text.utf8.count >= 33 else { return false }
        let parts = text.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
        guard parts.count >= 6, parts.count == 6 || (parts[6].hasPrefix("(") && parts[6].hasSuffix(")")) else {
            return false
        }
        func digits(_ part: Substring, _ count: Int) -> Bool {
            part.utf8.count == count && part.utf8.allSatisfy { (48...57).contains($0) }
        }
        let time = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        let zone = parts[5]
        return javaScriptWeekdays.contains(String(parts[0])) && javaScriptMonths.contains(String(parts[1]))
            && digits(parts[2], 2) && digits(parts[3], 4) && time.count == 3 && time.allSatisfy { digits($0, 2) }
            && zone.hasPrefix("GMT") && zone.utf8.count == 8 && ["+", "-"].contains(zone.dropFirst(3).prefix(1))
            && digits(zone.dropFirst(4), 4)
    }

    private static let javaScriptWeekdays: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let javaScriptMonths: Set<String> = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Whether `text` is a UNIX timestamp: an optional minus and 1 to 12 digits.
    static func isTimestamp(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
            return (1...12).contains(digits.count) && digits.allSatisfy { (48...57).contains($0) }
        }
    }

    /// A whole number in `range`, or `nil` when absent.
    /// - Throws: ``AlAdhanError`` for anything else.
    static func number(_ text: String?, name: String, range: ClosedRange<Int>) throws(AlAdhanError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw AlAdhanError(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'.")
        }
        return value
    }

    /// The days of a Gregorian month.
    static func days(_ month: Int, _ year: Int) -> [CivilDate] {
        (1...CivilDate.daysIn(month: month, year: year)).compactMap {
            try? CivilDate(year: year, month: month, day: $0)
        }
    }

    /// The schedules of consecutive days.
    func schedules(
        from date: CivilDate, days: Int, place: Place, settings: AlAdhanSettings
    ) throws(AlAdhanError) -> [PrayerSchedule] {
        var request = PrayerAPI.Request(
            coordinates: place.coordinates, zone: place.zone, date: date, days: days,
            parameters: settings.parameters)
        request.hijriCalendar = settings.hijriCalendar
        request.hijriOffset = settings.hijriOffset
        let schedules: [PrayerSchedule]
        do {
            schedules = try calculator.schedules(for: request)
        } catch {
            throw Self.refusal(error)
        }
        guard schedules.count == days else { throw AlAdhanError("The times of these days cannot be computed.") }
        return schedules
    }

    /// The Hijri dates of consecutive days.
    func hijriDays(from date: CivilDate, days: Int, settings: AlAdhanSettings) throws(AlAdhanError) -> [HijriDay] {
        do {
            let request = HijriAPI.Request(
                date: date, days: days, calendar: settings.hijriCalendar, offset: settings.hijriOffset)
            let converted = try hijri.days(for: request)
            guard converted.count == days else { throw AlAdhanError("These days cannot be converted to Hijri dates.") }
            return converted
        } catch {
            throw Self.refusal(error)
        }
    }

    /// The days of a Hijri month.
    func hijriMonth(_ month: Int, of year: Int, settings: AlAdhanSettings) throws(AlAdhanError) -> [HijriDay] {
        guard let hijriMonth = HijriMonth(rawValue: month) else { throw AlAdhanError("month must be from 1 to 12.") }
        do {
            return try hijri.month(hijriMonth, of: year, calendar: settings.hijriCalendar, offset: settings.hijriOffset)
        } catch {
            throw Self.refusal(error)
        }
    }
}
