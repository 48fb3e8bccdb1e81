/// The rules of fasting on a person's Hijri calendar: which days are Ramadan's, which fasts may be
/// recorded on a day, what each Ramadan's record and the days owed are, and which days are suggested
/// for a voluntary fast.
///
/// Every Hijri date comes from `hijri`, which must be the person's own: their calendar, offset and
/// announced month starts, as `praykit hijri` and `times --ramadan` use them.
///
/// ```swift
/// let fasts = FastCalendar(
///     hijri: dependency.hijriService().following(saved.hijriMonthStarts), calendar: .ummAlQura, offset: 0)
/// try fasts.check(.fasted, on: day, today: today)
/// let account = try fasts.account(of: entries, today: today)
/// ```
public struct FastCalendar: Sendable {
    /// The Hijri service, with the person's announced month starts.
    public let hijri: any HijriService
    /// The Hijri calendar.
    public let calendar: HijriCalendar
    /// The Hijri day offset for local sighting.
    public let offset: Int

    /// How far ahead ``nextSuggestion(from:recorded:)`` looks: past a whole Ramadan and Eid.
    public static let suggestionHorizon = 60

    /// Creates the rules over a Hijri service.
    public init(hijri: any HijriService, calendar: HijriCalendar, offset: Int) {
        self.hijri = hijri
        self.calendar = calendar
        self.offset = offset
    }

    /// Why fasting is forbidden on `date`: `Eid al-Fitr` (1 Shawwal), `Eid al-Adha` (10 Dhu al-Hijjah),
    /// `a day of tashriq` (11–13 Dhu al-Hijjah); `nil` on any other day.
    public static func forbiddenReason(_ date: HijriDate) -> String? {
        switch (date.month, date.day) {
        case (.shawwal, 1): "Eid al-Fitr"
        case (.dhuAlHijjah, 10): "Eid al-Adha"
        case (.dhuAlHijjah, 11...13): "a day of tashriq"
        default: nil
        }
    }
}

// MARK: - Days

extension FastCalendar {
    /// The Hijri days of `count` civil days from `start`.
    /// - Throws: ``HijriError``.
    public func days(from start: CivilDate, count: Int) throws -> [HijriDay] {
        try hijri.days(for: HijriAPI.Request(date: start, days: count, calendar: calendar, offset: offset))
    }

    /// The Hijri day of `date`.
    /// - Throws: ``HijriError``.
    public func day(_ date: CivilDate) throws -> HijriDay {
        guard let day = try days(from: date, count: 1).first else {
            throw HijriError(.outOfRange, message: "no Hijri date for \(date)")
        }
        return day
    }

    /// The days of Ramadan of Hijri `year`: 29 or 30, as the calendar (or an announced start) has them.
    /// - Throws: ``HijriError``.
    public func ramadan(of year: Int) throws -> [HijriDay] {
        try hijri.month(.ramadan, of: year, calendar: calendar, offset: offset)
    }
}

// MARK: - Rules

extension FastCalendar {
    /// Checks that a fast with `status` may be recorded on `date`: fasted, missed and excused only on a
    /// day of Ramadan; made-up and voluntary never in Ramadan nor on a day fasting is forbidden; no day
    /// after tomorrow.
    /// - Throws: ``ValidationError`` (field `date`) saying which rule and why; ``HijriError``.
    public func check(_ status: FastStatus, on date: CivilDate, today: CivilDate) throws {
        let tomorrow = today.clampedAdding(days: 1)
        guard date <= tomorrow else {
            throw ValidationError(
                field: "date", message: "\(date) is in the future; fasts are recorded up to a day ahead (\(tomorrow))")
        }
        let day = try day(date)
        let hijri = "\(day.hijri.day) \(day.hijri.monthName) \(day.hijri.year)"
        switch Self.problem(of: status, on: day) {
        case nil:
            return
        case .notRamadan:
            throw ValidationError(
                field: "date",
                message: "\(date) is \(hijri), not a day of Ramadan; \(status) is for Ramadan's days "
                    + "(record made-up or voluntary outside Ramadan)")
        case .forbidden where status.isRamadan:
            throw ValidationError(
                field: "date",
                message: "\(date) is \(hijri), not a day of Ramadan; \(status) is for Ramadan's days "
                    + "(record made-up or voluntary outside Ramadan)")
        case .ramadan:
            throw ValidationError(
                field: "date",
                message: "\(date) is \(hijri); a day of Ramadan is fasted, missed or excused, not \(status)")
        case .forbidden(let reason):
            throw ValidationError(
                field: "date", message: "\(date) is \(hijri), \(reason): a day on which fasting is forbidden")
        }
    }

    /// The first Hijri year whose Ramadan may be recorded whole (`fast record --ramadan`): 1343, where
    /// the Umm al-Qura table begins (1924), before any person recording fasts today was born.
    public static let firstRamadanYear = 1343

    /// The days of Ramadan of Hijri `year` before `today`: the days `fast record --ramadan` records.
    /// - Throws: ``ValidationError`` (field `ramadan`) for a year before ``firstRamadanYear`` or a
    ///   Ramadan that has not begun before today, saying which years may be given; ``HijriError``.
    public func pastDays(ofRamadan year: Int, today: CivilDate) throws -> [HijriDay] {
        let now = try day(today).hijri
        guard year >= Self.firstRamadanYear else {
            throw ValidationError(
                field: "ramadan",
                message: "Ramadan \(year) is before \(Self.firstRamadanYear) AH (1924), where the Umm al-Qura table "
                    + "begins: give a year from \(Self.firstRamadanYear) to \(now.year)")
        }
        // A year to come is named by its first day while the calendar has one near.
        let days =
            year <= now.year ? try ramadan(of: year) : year <= now.year + 100 ? (try? ramadan(of: year)) ?? [] : []
        let past = days.filter { $0.gregorian < today }
        guard past.isEmpty else { return past }
        let first = days.first?.gregorian
        let begins =
            first == today ? " begins today" : first.map { " begins on \($0), after today" } ?? " is in a year to come"
        throw ValidationError(
            field: "ramadan",
            message: "Ramadan \(year)\(begins) (\(today), \(now.day) \(now.monthName) \(now.year)): only the "
                + "days of a Ramadan before today are recorded")
    }
}

// MARK: - Suggestions

extension FastCalendar {
    /// The days from `start` for `count` days suggested for a voluntary fast, leaving out the days in
    /// `recorded` (days with a fast already recorded).
    /// - Throws: ``HijriError``.
    public func suggestions(from start: CivilDate, count: Int, recorded: Set<CivilDate>) throws -> [FastSuggestion] {
        try days(from: start, count: count).compactMap { day in
            guard !recorded.contains(day.gregorian) else { return nil }
            let reasons = FastReason.reasons(for: day)
            return reasons.isEmpty ? nil : FastSuggestion(day: day, reasons: reasons)
        }
    }

    /// The first suggested day from `start` within ``suggestionHorizon`` days, leaving out `recorded`
    /// days, or `nil`.
    /// - Throws: ``HijriError``.
    public func nextSuggestion(from start: CivilDate, recorded: Set<CivilDate>) throws -> FastSuggestion? {
        try suggestions(from: start, count: Self.suggestionHorizon, recorded: recorded).first
    }
}
