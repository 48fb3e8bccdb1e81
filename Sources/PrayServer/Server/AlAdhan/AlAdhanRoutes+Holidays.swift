import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// MARK: - Holidays and the Islamic calendar's lists

extension AlAdhanRoutes {
    /// `/v1/islamicHolidaysByHijriYear/{year}`: AlAdhan's special days of a Hijri year, each as the
    /// `{hijri, gregorian}` pair of `/v1/hToG`, one for each entry of `/v1/specialDays` in its order (a
    /// day with two names, 9 Dhū al-Ḥijjah's Hajj and Arafa, is there twice, as AlAdhan lists it).
    /// `calendarMethod` and `adjustment` are read as `/v1/hToG` reads them.
    /// - Throws: ``AlAdhanError`` 404 (AlAdhan's status for this route) for a year that is not a Hijri
    ///   year or cannot be converted; 400 for a bad `calendarMethod` or `adjustment`.
    func holidays(ofHijriYear text: String, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try AlAdhanSettings.hijri(query)
        guard let year = Int(text), (1...9999).contains(year) else {
            throw AlAdhanError(404, "No holidays found: '\(text)' is not a Hijri year such as 1446.")
        }
        // The pair of each day, converted once.
        var pairs: [Int: JSONValue] = [:]
        var json = JSONWriter(capacity: 24 * 1024)
        json.beginArray()
        for special in AlAdhanDate.specialDays {
            let key = special.month * 100 + special.day
            let pair: JSONValue
            if let known = pairs[key] {
                pair = known
            } else {
                do {
                    let date = try HijriDate(year: year, month: special.month, day: special.day)
                    pair = AlAdhanDate.pair(try hijri.day(of: date, calendar: calendar, offset: offset))
                } catch {
                    throw AlAdhanError(404, "No holidays found: \(Self.refusal(error).message)")
                }
                pairs[key] = pair
            }
            pair.write(to: &json)
        }
        json.endArray()
        return Answer(data: .raw(json.bytes), cache: .immutable)
    }

    /// `/v1/hijriHolidays/{day}/{month}`: the names of AlAdhan's special days on a Hijri day of a month
    /// (`["Eid-ul-Adha","Hajj"]` for 10 Dhū al-Ḥijjah).
    /// - Throws: ``AlAdhanError`` 400 for a day or month that is not one; 404 `No holidays found.` for a
    ///   day without any, as AlAdhan answers.
    func holidays(day dayText: String, month monthText: String) throws(AlAdhanError) -> Answer {
        guard let day = Int(dayText), let month = Int(monthText), (1...30).contains(day), (1...12).contains(month)
        else {
            throw AlAdhanError(
                "Please specify a valid day and month: a Hijri day from 1 to 30 and a month from 1 to 12, such as "
                    + "/v1/hijriHolidays/10/12.")
        }
        let names = AlAdhanDate.specialDays.filter { $0.month == month && $0.day == day }.map(\.name)
        guard !names.isEmpty else { throw AlAdhanError(404, "No holidays found.") }
        return Answer(data: .array(names.map(JSONValue.string)), cache: .immutable)
    }

    /// The `data` of `/v1/specialDays`: AlAdhan's special days, `{"month":1,"day":10,"name":"Ashura"}`,
    /// in its order.
    static let specialDayList: JSONValue = .raw(
        JSONValue.array(
            AlAdhanDate.specialDays.map { special in
                .object([("month", .int(special.month)), ("day", .int(special.day)), ("name", .string(special.name))])
            }
        ).renderedBytes)

    /// The `data` of `/v1/islamicMonths`: `{"1":{"number":1,"en":"Muḥarram","ar":"مُحَرَّم"},…}`.
    static let islamicMonthList: JSONValue = .raw(
        JSONValue.object(
            AlAdhanDate.hijriMonths.enumerated().map { index, month in
                (
                    String(index + 1),
                    .object([("number", .int(index + 1)), ("en", .string(month.en)), ("ar", .string(month.ar))])
                )
            }
        ).renderedBytes)

    /// `/v1/nextHijriHoliday`: the first day from today (UTC, as AlAdhan's server counts it) within 360
    /// days that has a special day, as the `{hijri, gregorian}` pair; `calendarMethod` and `adjustment`
    /// as in `/v1/gToH`. Cached until midnight UTC.
    /// - Throws: ``AlAdhanError`` 400 for bad parameters, or AlAdhan's `Unable to compute next holiday.`
    func nextHijriHoliday(_ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try AlAdhanSettings.hijri(query)
        let today = utcDay()
        let days: [HijriDay]
        do {
            days = try hijri.days(
                for: HijriAPI.Request(date: today.date, days: 361, calendar: calendar, offset: offset))
        } catch {
            throw Self.refusal(error)
        }
        guard let day = days.first(where: { !AlAdhanDate.holidays($0).isEmpty }) else {
            throw AlAdhanError("Unable to compute next holiday.")
        }
        return Answer(data: AlAdhanDate.pair(day), cache: today.cache)
    }

    /// `/v1/currentIslamicYear` and `/v1/currentIslamicMonth`: the Hijri year or month number of today
    /// (UTC), a number in `data`; `calendarMethod` and `adjustment` as in `/v1/gToH`. Cached until
    /// midnight UTC.
    func currentIslamic(_ name: String, _ query: AlAdhanQuery) throws(AlAdhanError) -> Answer {
        let (calendar, offset) = try AlAdhanSettings.hijri(query)
        let today = utcDay()
        let day: HijriDay
        do {
            guard
                let first = try hijri.days(for: HijriAPI.Request(date: today.date, calendar: calendar, offset: offset))
                    .first
            else { throw AlAdhanError("Today cannot be converted to a Hijri date.") }
            day = first
        } catch {
            throw Self.refusal(error)
        }
        let number = name == "currentIslamicYear" ? day.hijri.year : day.hijri.monthNumber
        return Answer(data: .int(number), cache: today.cache)
    }

    /// `/v1/islamicYearFromGregorianForRamadan/{year}`: the Hijri year whose Ramadan falls in a
    /// Gregorian year, by AlAdhan's rule: the Hijri year of 1 January when that day is before or in
    /// Ramadan, else the next one (in a year with two Ramadans, the first).
    /// - Throws: ``AlAdhanError`` 400 `Please specify a valid year` for a year before 623 or not a number.
    func islamicYearForRamadan(_ text: String) throws(AlAdhanError) -> Answer {
        guard let year = Int(text), (623...9999).contains(year) else {
            throw AlAdhanError("Please specify a valid year: a Gregorian year from 623, such as 2027.")
        }
        let day: HijriDay
        do {
            let date = try CivilDate(year: year, month: 1, day: 1)
            guard let first = try hijri.days(for: HijriAPI.Request(date: date)).first else {
                throw AlAdhanError("1 January \(year) cannot be converted to a Hijri date.")
            }
            day = first
        } catch {
            throw Self.refusal(error)
        }
        let hijriYear = day.hijri.monthNumber > 9 ? day.hijri.year + 1 : day.hijri.year
        return Answer(data: .int(hijriYear), cache: .immutable)
    }
}
