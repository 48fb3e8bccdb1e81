#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HijriService {
    /// This service with the months of `starts` beginning on their announced days (this service
    /// itself when there are none).
    ///
    /// ```swift
    /// let hijri = dependency.hijriService().following(try HijriMonthStarts(parsing: "1448-09=2027-02-09"))
    /// ```
    public func following(_ starts: HijriMonthStarts) -> any HijriService {
        starts.isEmpty ? self : HijriServiceMonthStarts(base: self, starts: starts)
    }
}

/// A ``HijriService`` whose months begin on the days a country or mosque announced (``HijriMonthStarts``)
/// and otherwise on its base service's days.
///
/// Within an overridden month the days count from the announced start and the month ends the day before
/// the next month's start (announced or the calendar's, with the offset); the offset does not apply to
/// an overridden month. An override more than 2 days from the calendar's first day, or one that would
/// make a month shorter than 29 or longer than 30 days in the calendar and offset of a call, is left out
/// of that call: ``problems(calendar:offset:)`` says which and why, and ``check(calendar:offset:)``
/// refuses them.
public struct HijriServiceMonthStarts: HijriService {
    /// The service whose calendar the overrides amend.
    public let base: any HijriService
    /// The announced starts.
    public let starts: HijriMonthStarts

    /// The farthest an announced start may be from the calendar's first day of the month.
    public static let maximumShift = 2

    /// Creates the service.
    public init(base: any HijriService, starts: HijriMonthStarts) {
        self.base = base
        self.starts = starts
    }

    /// The base service's queue.
    public var workQueue: WorkQueue { base.workQueue }
}

// MARK: - Checks

extension HijriServiceMonthStarts {
    /// What is wrong with each override that does not fit `calendar` with `offset`: more than 2 days from
    /// the calendar's first day, or a month (its own or the one before) of other than 29 or 30 days.
    public func problems(calendar: HijriCalendar, offset: Int) -> [HijriMonthStarts.Month: String] {
        var resolver = Resolver(base: base, starts: starts, calendar: calendar, offset: offset)
        var problems: [HijriMonthStarts.Month: String] = [:]
        for (month, start) in starts.sorted {
            if let problem = resolver.problem(month, start: start) { problems[month] = problem }
        }
        return problems
    }

    /// Refuses overrides that do not fit `calendar` with `offset`.
    /// - Throws: ``HijriError`` (`invalidDate`) with the first problem, naming the month and its length.
    public func check(calendar: HijriCalendar, offset: Int) throws(HijriError) {
        let problems = problems(calendar: calendar, offset: offset)
        if let first = problems.sorted(by: { $0.key < $1.key }).first {
            throw HijriError(.invalidDate, message: first.value)
        }
    }

    /// The overrides that fit `calendar` with `offset`.
    func applicable(calendar: HijriCalendar, offset: Int) -> HijriMonthStarts {
        var applicable = starts
        for month in problems(calendar: calendar, offset: offset).keys { applicable[month] = nil }
        return applicable
    }
}

// MARK: - The service

extension HijriServiceMonthStarts {
    /// The base service's days, renumbered where an override moves a month's start.
    /// - Throws: What the base service throws.
    public func days(for request: HijriAPI.Request) throws -> [HijriDay] {
        let days = try base.days(for: request)
        var resolver = Resolver(
            base: base, starts: applicable(calendar: request.calendar, offset: request.offset),
            calendar: request.calendar, offset: request.offset)
        guard !resolver.starts.isEmpty else { return days }
        return try days.map { day in try resolver.resolve(day) }
    }

    /// The civil day of a Hijri date, counting from the announced start in an overridden month.
    /// - Throws: ``HijriError`` when the date does not exist (the 30th of a 29-day month), or what the base
    ///   service throws.
    public func day(of date: HijriDate, calendar: HijriCalendar, offset: Int) throws -> HijriDay {
        var resolver = Resolver(
            base: base, starts: applicable(calendar: calendar, offset: offset), calendar: calendar, offset: offset)
        guard let month = try? HijriMonthStarts.Month(year: date.year, month: date.monthNumber),
            resolver.isAffected(month)
        else { return try base.day(of: date, calendar: calendar, offset: offset) }
        let (start, length) = try resolver.span(month)
        guard date.day <= length else {
            throw HijriError(
                .invalidDate,
                message: "\(date.monthName) \(date.year) has \(length) days as announced, so \(date) does not exist")
        }
        return try days(
            for: HijriAPI.Request(
                date: CivilDate(daysSince1970: start + date.day - 1), calendar: calendar, offset: offset))[0]
    }

    /// Every day of a Hijri month, from its announced start when it has one.
    /// - Throws: What the base service throws.
    public func month(_ month: HijriMonth, of year: Int, calendar: HijriCalendar, offset: Int) throws -> [HijriDay] {
        var resolver = Resolver(
            base: base, starts: applicable(calendar: calendar, offset: offset), calendar: calendar, offset: offset)
        guard let key = try? HijriMonthStarts.Month(year: year, month: month.rawValue), resolver.isAffected(key) else {
            return try base.month(month, of: year, calendar: calendar, offset: offset)
        }
        let (start, length) = try resolver.span(key)
        return try days(
            for: HijriAPI.Request(
                date: CivilDate(daysSince1970: start), days: length, calendar: calendar, offset: offset))
    }

    /// The base service's Islamic day, renumbered where an override moves a month's start.
    /// - Throws: What the base service throws.
    public func islamicDay(at instant: Date, place: HijriAPI.Place) async throws -> HijriAPI.IslamicDay {
        let found = try await base.islamicDay(at: instant, place: place)
        let day = try days(
            for: HijriAPI.Request(date: found.day.gregorian, calendar: place.calendar, offset: place.offset))[0]
        return HijriAPI.IslamicDay(
            day: day, civilDate: found.civilDate, maghrib: found.maghrib, isAfterMaghrib: found.isAfterMaghrib)
    }

    /// The first day after `date` that is one of `kinds`, with the announced starts.
    /// - Throws: ``HijriError`` when none comes within 400 days, or what the base service throws.
    public func nextNotableDay(
        after date: CivilDate, kinds: Set<NotableDay.Kind>, calendar: HijriCalendar, offset: Int
    ) throws -> HijriDay {
        // Every kind recurs within a Hijri year (355 days).
        let first = date.daysSince1970 + 1
        let count = min(400, CivilDate.last.daysSince1970 - first + 1)
        guard count > 0 else {
            throw HijriError(.outOfRange, message: "no notable day of the kinds asked for follows \(date)")
        }
        let days = try days(
            for: HijriAPI.Request(
                date: CivilDate(daysSince1970: first), days: count, calendar: calendar, offset: offset))
        guard let day = days.first(where: { $0.notableDays.contains { kinds.contains($0.kind) } }) else {
            throw HijriError(.outOfRange, message: "no notable day of the kinds asked for follows \(date)")
        }
        return day
    }
}

// MARK: - Resolving

extension HijriServiceMonthStarts {
    /// Finds months' first days (days from 1970-01-01) with the overrides, caching the calendar's.
    struct Resolver {
        let base: any HijriService
        let starts: HijriMonthStarts
        let calendar: HijriCalendar
        let offset: Int
        private var calendarStarts: [HijriMonthStarts.Month: Int] = [:]

        init(base: any HijriService, starts: HijriMonthStarts, calendar: HijriCalendar, offset: Int) {
            self.base = base
            self.starts = starts
            self.calendar = calendar
            self.offset = offset
        }

        /// The calendar's first day of `month`, without the offset.
        mutating func calendarStart(_ month: HijriMonthStarts.Month) throws -> Int {
            if let known = calendarStarts[month] { return known }
            let day = try base.day(
                of: HijriDate(year: month.year, month: month.month, day: 1), calendar: calendar, offset: 0)
            calendarStarts[month] = day.gregorian.daysSince1970
            return day.gregorian.daysSince1970
        }

        /// The first day of `month` in effect: announced, or the calendar's moved by the offset.
        mutating func start(_ month: HijriMonthStarts.Month) throws -> Int {
            if let announced = starts[month] { return announced.daysSince1970 }
            return try calendarStart(month) - offset
        }

        /// Whether an override moves `month`'s first or last day.
        func isAffected(_ month: HijriMonthStarts.Month) -> Bool {
            starts[month] != nil || starts[month.next] != nil
        }

        /// The first day and length of `month` in effect.
        mutating func span(_ month: HijriMonthStarts.Month) throws -> (start: Int, length: Int) {
            let start = try start(month)
            return (start, try self.start(month.next) - start)
        }

        /// `day` renumbered if an override moves the month it falls in.
        mutating func resolve(_ day: HijriDay) throws -> HijriDay {
            guard let month = try? HijriMonthStarts.Month(year: day.hijri.year, month: day.hijri.monthNumber),
                isAffected(month)
            else { return day }
            let civil = day.gregorian.daysSince1970
            for candidate in [month.previous, month, month.next] where candidate.year >= 1 {
                let (start, length) = try span(candidate)
                guard (start..<(start + length)).contains(civil) else { continue }
                let isAnnounced = starts[candidate] != nil
                return HijriDay(
                    gregorian: day.gregorian,
                    hijri: try HijriDate(year: candidate.year, month: candidate.month, day: civil - start + 1),
                    monthLength: length, calendar: day.calendar, isTabular: day.isTabular,
                    offset: isAnnounced ? 0 : day.offset)
            }
            return day
        }

        /// What is wrong with announcing `start` for `month`, if anything.
        mutating func problem(_ month: HijriMonthStarts.Month, start: CivilDate) -> String? {
            do {
                let calendarDay = try calendarStart(month)
                let shift = start.daysSince1970 - calendarDay
                if abs(shift) > HijriServiceMonthStarts.maximumShift {
                    return "\(start) is \(abs(shift)) days \(shift > 0 ? "after" : "before") the calendar's 1 "
                        + "\(month.name) \(month.year) (\(CivilDate(daysSince1970: calendarDay))): an announced start "
                        + "must be within \(HijriServiceMonthStarts.maximumShift) days of it"
                }
                for checked in [month.previous, month] where checked.year >= 1 {
                    let (_, length) = try span(checked)
                    if !(29...30).contains(length) {
                        return "1 \(month.name) \(month.year) on \(start) would make \(checked.name) \(checked.year) "
                            + "(\(checked)) \(length) days long; a Hijri month has 29 or 30 days"
                    }
                }
                return nil
            } catch {
                return "\(month) cannot be checked: \(error)"
            }
        }
    }
}
