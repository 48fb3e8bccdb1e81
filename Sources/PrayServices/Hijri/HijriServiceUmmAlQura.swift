import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Hijri dates from the official Umm al-Qura table (1343–1500 AH, every day checked against it in the
/// tests), the tabular calendar outside it or when asked, a local sighting offset, and the Islamic
/// day that begins at maghrib.
///
/// ```swift
/// let hijri = HijriServiceUmmAlQura(prayerService: PrayerServiceAstronomical(log: .silent), log: .silent)
/// let today = try hijri.days(for: HijriAPI.Request(date: try CivilDate(parsing: "2026-11-29")))[0]
/// print(today.hijri, today.hijri.monthNameArabic)   // 1448-06-19 جمادى الآخرة
/// ```
public struct HijriServiceUmmAlQura: HijriService {
    private let prayerService: any PrayerService
    private let log: LogManager

    /// Creates the service.
    /// - Parameters:
    ///   - prayerService: Finds maghrib for ``islamicDay(at:place:)``.
    ///   - log: The logger.
    public init(prayerService: any PrayerService, log: LogManager) {
        self.prayerService = prayerService
        self.log = log
    }
}

extension HijriServiceUmmAlQura {
    /// Converts each requested civil day.
    /// - Throws: ``HijriError`` for a bad offset, a day count outside 1…60000, or days before 1 AH.
    public func days(for request: HijriAPI.Request) throws(HijriError) -> [HijriDay] {
        try Self.check(offset: request.offset)
        guard (1...HijriAPI.Request.maximumDays).contains(request.days) else {
            throw HijriError(
                .outOfRange, message: "days must be between 1 and \(HijriAPI.Request.maximumDays), got \(request.days)"
            )
        }
        let first = request.date.daysSince1970
        guard first + request.days - 1 <= CivilDate.lastDay else {
            throw HijriError(.outOfRange, message: "the requested days run past the year 9999")
        }
        var days: [HijriDay] = []
        days.reserveCapacity(request.days)
        for day in first..<(first + request.days) {
            // The day after one before its month's last: the same month a day on (the table and the
            // tabular calendar both count a month's days straight), without looking the day up.
            if let last = days.last, last.hijri.day < last.monthLength {
                days.append(
                    HijriDay(
                        gregorian: last.gregorian.adding(days: 1),
                        hijri: try HijriDate(
                            year: last.hijri.year, month: last.hijri.monthNumber, day: last.hijri.day + 1),
                        monthLength: last.monthLength, calendar: last.calendar, isTabular: last.isTabular,
                        offset: last.offset))
            } else {
                days.append(try Self.convert(day, calendar: request.calendar, offset: request.offset))
            }
        }
        return days
    }

    /// The civil day of a Hijri date.
    /// - Throws: ``HijriError`` when the date does not exist in `calendar` or is out of range.
    public func day(of date: HijriDate, calendar: HijriCalendar, offset: Int) throws(HijriError) -> HijriDay {
        try Self.check(offset: offset)
        let (start, length, _) = try Self.month(date.monthNumber, of: date.year, calendar: calendar)
        guard date.day <= length else {
            throw HijriError(
                .invalidDate,
                message: "\(date.monthName) \(date.year) has \(length) days in the \(calendar) calendar, "
                    + "so \(date) does not exist"
            )
        }
        return try Self.convert(start + date.day - 1 - offset, calendar: calendar, offset: offset)
    }

    /// Every day of a Hijri month.
    /// - Throws: ``HijriError`` for a month out of range.
    public func month(
        _ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int
    ) throws(HijriError) -> [HijriDay] {
        try Self.check(offset: offset)
        let (start, length, _) = try Self.month(month.rawValue, of: year, calendar: calendar)
        var days: [HijriDay] = []
        for day in start..<(start + length) {
            days.append(try Self.convert(day - offset, calendar: calendar, offset: offset))
        }
        return days
    }

    /// The Islamic date at `instant`: the civil day's Hijri date before its maghrib, the next one after.
    /// Where the sun gives no maghrib that day (polar day or night), the civil day's date.
    /// - Throws: ``HijriError``, or what the prayer service throws.
    public func islamicDay(at instant: Date, place: HijriAPI.Place) async throws -> HijriAPI.IslamicDay {
        try Self.check(offset: place.offset)
        let civil = try CivilDate(containing: instant, in: place.timeZone)
        let request = PrayerAPI.Request(
            coordinates: place.coordinates, timeZone: place.timeZone, date: civil, parameters: place.parameters
        )
        let maghrib = try await prayerService.prayerTimes(for: request).schedules.first?[.maghrib]?.date
        if maghrib == nil {
            log.info("No maghrib: the Hijri date follows the civil day", metadata: ["hijri.date": "\(civil)"])
        }
        let isAfterMaghrib = maghrib.map { instant >= $0 } ?? false
        let day = try Self.convert(
            civil.daysSince1970 + (isAfterMaghrib ? 1 : 0), calendar: place.calendar, offset: place.offset
        )
        return HijriAPI.IslamicDay(day: day, civilDate: civil, maghrib: maghrib, isAfterMaghrib: isAfterMaghrib)
    }

    /// The first day after `date` that is one of `kinds`.
    /// - Throws: ``HijriError`` when none comes before the end of the calendar's range.
    public func nextNotableDay(
        after date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    ) throws(HijriError) -> HijriDay {
        try Self.check(offset: offset)
        var day = date.daysSince1970 + 1
        // Every kind recurs within a Hijri year (355 days).
        while day <= min(date.daysSince1970 + 400, CivilDate.lastDay) {
            let hijri = try Self.convert(day, calendar: calendar, offset: offset)
            if hijri.notableDays.contains(where: { kinds.contains($0.kind) }) { return hijri }
            day += 1
        }
        throw HijriError(.outOfRange, message: "no notable day of the kinds asked for follows \(date)")
    }
}

// MARK: - Helpers

extension HijriServiceUmmAlQura {
    /// The Hijri day of civil day `day` (days from 1970-01-01) with `offset` applied.
    static func convert(_ day: Int, calendar: HijriCalendar, offset: Int) throws(HijriError) -> HijriDay {
        // A Hijri month near the year 9999 (02-04-9666 is 9999-12-31), or a day moved by the offset,
        // can reach past the civil days PrayKit has: refused, not a trap in `CivilDate`.
        guard (CivilDate.firstDay...CivilDate.lastDay).contains(day) else {
            throw HijriError(
                .outOfRange,
                message: "the day falls \(day < CivilDate.firstDay ? "before 0001-01-01" : "after 9999-12-31"), "
                    + "outside the years PrayKit converts")
        }
        let shifted = day + offset
        let tableDate = calendar == .ummAlQura ? UmmAlQuraTable.date(daysSince1970: shifted) : nil
        let edge = calendar == .ummAlQura ? tableEdgeShift(day: shifted) : 0
        let (year, month, dayOfMonth) = tableDate ?? TabularIslamicCalendar.date(daysSince1970: shifted - edge)
        guard year >= 1 else {
            throw HijriError(
                .outOfRange, message: "\(CivilDate(daysSince1970: day)) is before the Hijri calendar began")
        }
        let length =
            tableDate != nil
            ? UmmAlQuraTable.monthLength(year: year, month: month) ?? 30
            : TabularIslamicCalendar.monthLength(year: year, month: month)
        return HijriDay(
            gregorian: CivilDate(daysSince1970: day), hijri: try HijriDate(year: year, month: month, day: dayOfMonth),
            monthLength: length, calendar: calendar, isTabular: tableDate == nil, offset: offset
        )
    }

    /// The first day (days from 1970-01-01, before any offset), length and source of a Hijri month.
    static func month(
        _ month: Int, of year: Int, calendar: HijriCalendar
    ) throws(HijriError) -> (start: Int, length: Int, isTabular: Bool) {
        // Checked before any arithmetic: the tabular calendar's day count overflows for years near Int.max.
        guard (1...9999).contains(year) else {
            throw HijriError(.outOfRange, message: "Hijri year \(year) is outside the years PrayKit converts")
        }
        if calendar == .ummAlQura, let start = UmmAlQuraTable.monthStart(year: year, month: month),
            let length = UmmAlQuraTable.monthLength(year: year, month: month)
        {
            return (start, length, false)
        }
        let edge = calendar == .ummAlQura ? tableEdgeShift(year: year) : 0
        let start = TabularIslamicCalendar.daysSince1970(year: year, month: month, day: 1) + edge
        guard year >= 1, start <= CivilDate.lastDay else {
            throw HijriError(.outOfRange, message: "Hijri year \(year) is outside the years PrayKit converts")
        }
        return (start, TabularIslamicCalendar.monthLength(year: year, month: month), true)
    }

    /// Days the tabular calendar is moved by outside the Umm al-Qura table, so that it continues from
    /// the table's first and last month rather than from its own epoch: converting a date just
    /// outside the table and back then gives the same date (1342-12-29 ↔ the day before 1343-01-01).
    private static let edgeShifts: (before: Int, after: Int) = {
        let first = UmmAlQuraTable.years.lowerBound
        let afterLast = UmmAlQuraTable.years.upperBound + 1
        let before =
            (UmmAlQuraTable.monthStart(year: first, month: 1) ?? 0)
            - TabularIslamicCalendar.daysSince1970(year: first, month: 1, day: 1)
        let after =
            UmmAlQuraTable.days.upperBound - TabularIslamicCalendar.daysSince1970(year: afterLast, month: 1, day: 1)
        return (before, after)
    }()

    /// The shift of the tabular calendar for a civil day outside the table (0 inside).
    static func tableEdgeShift(day: Int) -> Int {
        day < UmmAlQuraTable.days.lowerBound
            ? edgeShifts.before : day >= UmmAlQuraTable.days.upperBound ? edgeShifts.after : 0
    }

    /// The shift of the tabular calendar for a Hijri year outside the table (0 inside).
    static func tableEdgeShift(year: Int) -> Int {
        year < UmmAlQuraTable.years.lowerBound
            ? edgeShifts.before : year > UmmAlQuraTable.years.upperBound ? edgeShifts.after : 0
    }

    static func check(offset: Int) throws(HijriError) {
        guard HijriAPI.offsets.contains(offset) else {
            throw HijriError(.invalidOffset, message: "the Hijri offset must be between -2 and 2 days, got \(offset)")
        }
    }
}

extension CivilDate {
    /// 0001-01-01 as days from 1970-01-01.
    static let firstDay = CivilDate.first.daysSince1970
    /// 9999-12-31 as days from 1970-01-01.
    static let lastDay = CivilDate.last.daysSince1970
}
