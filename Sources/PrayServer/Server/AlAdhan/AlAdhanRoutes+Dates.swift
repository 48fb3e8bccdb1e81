import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Hijri conversion, qibla, methods, clock

extension AlAdhanRoutes {
    /// The Hijri calendar and day offset of `calendarMethod` and `adjustment` (a place is not needed).
    private func hijriSettings(_ query: AlAdhanQuery) throws(AlAdhanError) -> (HijriCalendar, Int) {
        try AlAdhanSettings.hijri(query)
    }

    /// Today in UTC, and how long that answer holds.
    func utcDay() -> (date: CivilDate, cache: Cache) {
        var utc = ZoneClock(zone: .utc)
        return localDay(clock: &utc)
    }

    /// `/v1/gToH/{date}`: the Hijri date of a Gregorian `DD-MM-YYYY` (today, in UTC, without one).
    func gregorianToHijri(_ text: String?, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try hijriSettings(query)
        let (date, cache) =
            try text.map { text throws(AlAdhanError) in
                (try Self.gregorianDate(text, status: 404), Cache.immutable)
            } ?? utcDay()
        do {
            guard let day = try hijri.days(for: HijriAPI.Request(date: date, calendar: calendar, offset: offset)).first
            else { throw AlAdhanError(404, "no Hijri date") }
            return Answer(data: AlAdhanDate.pair(day), cache: cache)
        } catch {
            throw AlAdhanError(404, "Invalid date or unable to convert it: \(Self.refusal(error).message)")
        }
    }

    /// `/v1/hToG/{date}`: the Gregorian date of a Hijri `DD-MM-YYYY` (today's, without one).
    func hijriToGregorian(_ text: String?, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try hijriSettings(query)
        guard let text else {
            let today = utcDay()
            do {
                let request = HijriAPI.Request(date: today.date, calendar: calendar, offset: offset)
                guard let day = try hijri.days(for: request).first else { throw AlAdhanError(404, "no Hijri date") }
                return Answer(data: AlAdhanDate.pair(day), cache: today.cache)
            } catch {
                throw AlAdhanError(404, "Invalid date or unable to convert it: \(Self.refusal(error).message)")
            }
        }
        guard let (day, month, year) = Self.dayMonthYear(text, yearDigits: 1...4) else {
            throw AlAdhanError(404, "Invalid date '\(text)': use a Hijri DD-MM-YYYY, such as 01-09-1448.")
        }
        do {
            let date = try HijriDate(year: year, month: month, day: day)
            return Answer(
                data: AlAdhanDate.pair(try hijri.day(of: date, calendar: calendar, offset: offset)), cache: .immutable)
        } catch {
            throw AlAdhanError(404, "Invalid date or unable to convert it: \(Self.refusal(error).message)")
        }
    }

    /// `/v1/gToHCalendar/{month}/{year}`: the Hijri date of every day of a Gregorian month.
    func gregorianToHijriCalendar(month: String, year: String, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try hijriSettings(query)
        let month = try Self.number(month, name: "month", range: 1...12) ?? 1
        let year = try Self.number(year, name: "year", range: 1...9999) ?? 1
        let dates = Self.days(month, year)
        do {
            let days = try hijri.days(
                for: HijriAPI.Request(date: dates[0], days: dates.count, calendar: calendar, offset: offset))
            return Answer(data: .array(days.map(AlAdhanDate.pair)), cache: .immutable)
        } catch {
            throw Self.refusal(error)
        }
    }

    /// `/v1/hToGCalendar/{month}/{year}`: the Gregorian date of every day of a Hijri month.
    func hijriToGregorianCalendar(month: String, year: String, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try hijriSettings(query)
        let month = try Self.number(month, name: "month", range: 1...12) ?? 1
        let year = try Self.number(year, name: "year", range: 1...9999) ?? 1
        do {
            let days = try hijri.month(
                HijriMonth(rawValue: month) ?? .muharram, of: year, calendar: calendar, offset: offset)
            return Answer(data: .array(days.map(AlAdhanDate.pair)), cache: .immutable)
        } catch {
            throw Self.refusal(error)
        }
    }

    /// `/v1/qibla/{latitude}/{longitude}`: `latitude`, `longitude` and `direction`, degrees clockwise
    /// from true north along the geodesic (PrayKit's; AlAdhan's great circle differs by under 0.1°
    /// at most places).
    func qiblaDirection(latitude: String, longitude: String) throws(AlAdhanError) -> Answer {
        let coordinates = try Self.coordinates(latitude, longitude)
        let qibla = qibla.qibla(from: coordinates)
        let data = JSONValue.object([
            ("latitude", .double(coordinates.latitude)), ("longitude", .double(coordinates.longitude)),
            ("direction", .double(qibla.direction)),
        ])
        return Answer(data: data, cache: .immutable)
    }

    /// `/v1/methods`: every method by AlAdhan's code with AlAdhan's keys (`id`, `name`, `params`,
    /// `location`), and two of PrayKit's: `source`, where the definition comes from (and where it differs
    /// from AlAdhan's), and `calculation`, how PrayKit's arithmetic differs from AlAdhan's.
    func methods() -> Answer { Answer(data: Self.methodTable, cache: .immutable) }

    /// The `data` of `/v1/methods`, made once.
    private static let methodTable: JSONValue = .object(
        AlAdhanMethod.all.map { method -> (String, JSONValue) in
            guard method.preset != .custom else {
                return (method.code, .object([("id", .int(method.id)), ("source", .string(method.source))]))
            }
            return (method.code, method.json(parameters: method.parameters, shafaq: nil, describe: true))
        })

    /// `/v1/currentTime` (`HH:mm`), `/v1/currentDate` (`DD-MM-YYYY`) and `/v1/currentTimestamp` in
    /// the `zone` asked for.
    func current(_ name: String, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        guard let text = query.given(.zone) else {
            throw AlAdhanError("Please specify a valid timezone. Example: Europe/London")
        }
        var zoneClock = ZoneClock(zone: try Self.zone(named: text, parameter: "timezone (zone)"))
        let now = Int(clock.now().timeIntervalSince1970.rounded(.down))
        switch name {
        case "currentTime":
            return Answer(
                data: .string(AlAdhanTimings.clockText(now, clock: &zoneClock)), cache: .seconds(60 - now % 60))
        case "currentDate":
            let today = localDay(clock: &zoneClock)
            return Answer(data: .string(AlAdhanDate.dayMonthYear(today.date)), cache: today.cache)
        default:
            return Answer(data: .string(String(now)), cache: .none)
        }
    }
}
