/// An estimate of the prayers owed over a range of days (`praykit qada estimate`): one prayer of each
/// of the five per day from ``from`` through ``through``, less the days excepted (prayed then, or a
/// journey the person counts apart) and the excused days of each month (a woman's period, when no
/// prayer is owed).
///
/// The excused days of a month are prorated and rounded down per Gregorian month: a month the range
/// covers whole (after the excepted days) excuses `excusedDaysPerMonth` days, one it covers in part
/// ⌊N × counted days ÷ days in the month⌋.
///
/// ```swift
/// let estimate = try QadaEstimate(
///     from: try CivilDate(parsing: "2010-01-01"), through: try CivilDate(parsing: "2026-11-30"),
///     except: [try CivilDate(parsing: "2015-06-01")...(try CivilDate(parsing: "2015-08-31"))],
///     excusedDaysPerMonth: 6)
/// print(estimate.owed, estimate.openingDate)   // per prayer, and the day the log counts from
/// ```
public struct QadaEstimate: Hashable, Sendable {
    /// The most excused days a month.
    public static let excusedDaysRange = 0...15

    /// The first day counted.
    public let from: CivilDate
    /// The last day counted.
    public let through: CivilDate
    /// The days from ``from`` through ``through``.
    public let days: Int
    /// The days inside the excepted ranges.
    public let excepted: Int
    /// The excused days, summed over the months.
    public let excused: Int

    /// The prayers owed of each of the five: days − excepted − excused.
    public var owed: Int { days - excepted - excused }
    /// The day after ``through``: the opening's date, the first day the log counts.
    public var openingDate: CivilDate { through.clampedAdding(days: 1) }

    /// Counts the days.
    /// - Parameters:
    ///   - from: The first day owed.
    ///   - through: The last day owed.
    ///   - except: Ranges of days not owed: each inside `from`…`through`, none overlapping another.
    ///   - excusedDaysPerMonth: Days a month not owed, 0…15.
    /// - Throws: ``ValidationError`` (`from`, `except`, `excused`, `count`) for `from` after `through`,
    ///   a range outside the days or overlapping another, a number of days out of range, or more than
    ///   ``QadaEntry/maximumOpeningCount`` owed.
    public init(
        from: CivilDate, through: CivilDate, except: [ClosedRange<CivilDate>] = [], excusedDaysPerMonth: Int = 0
    ) throws(ValidationError) {
        guard from <= through else {
            throw ValidationError(field: "from", message: "the first day \(from) is after the last day \(through)")
        }
        guard Self.excusedDaysRange.contains(excusedDaysPerMonth) else {
            throw ValidationError(
                field: "excused", message: "excused days a month are 0…15, got \(excusedDaysPerMonth)")
        }
        let ranges = except.sorted { $0.lowerBound < $1.lowerBound }
        for (index, range) in ranges.enumerated() {
            guard range.lowerBound >= from, range.upperBound <= through else {
                throw ValidationError(
                    field: "except",
                    message: "the excepted days \(Self.describe(range)) are not all within \(from)..\(through)")
            }
            if index > 0, ranges[index - 1].upperBound >= range.lowerBound {
                throw ValidationError(
                    field: "except",
                    message: "the excepted days \(Self.describe(ranges[index - 1])) and \(Self.describe(range)) overlap"
                )
            }
        }
        self.from = from
        self.through = through
        days = through.daysSince1970 - from.daysSince1970 + 1
        excepted = ranges.reduce(0) { $0 + Self.length($1) }
        excused = Self.excused(from: from, through: through, except: ranges, perMonth: excusedDaysPerMonth)
        guard days - excepted - excused <= QadaEntry.maximumOpeningCount else {
            throw ValidationError(
                field: "count",
                message: "\(days - excepted - excused) days is more than an opening holds "
                    + "(\(QadaEntry.maximumOpeningCount))")
        }
    }

    /// `2015-06-01..2015-08-31`, or one day.
    private static func describe(_ range: ClosedRange<CivilDate>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)..\(range.upperBound)"
    }

    /// The days of `range`.
    private static func length(_ range: ClosedRange<CivilDate>) -> Int {
        range.upperBound.daysSince1970 - range.lowerBound.daysSince1970 + 1
    }

    /// The days `a` and `b` share.
    private static func overlap(_ a: ClosedRange<CivilDate>, _ b: ClosedRange<CivilDate>) -> Int {
        let start = max(a.lowerBound, b.lowerBound)
        let end = min(a.upperBound, b.upperBound)
        return start <= end ? end.daysSince1970 - start.daysSince1970 + 1 : 0
    }

    /// ⌊N × counted ÷ month length⌋ summed over the months `from`…`through` touches, counted days being
    /// those of the month in the range and not excepted.
    private static func excused(
        from: CivilDate, through: CivilDate, except: [ClosedRange<CivilDate>], perMonth: Int
    ) -> Int {
        guard perMonth > 0 else { return 0 }
        var total = 0
        var year = from.year
        var month = from.month
        while (year, month) <= (through.year, through.month) {
            let monthLength = CivilDate.daysIn(month: month, year: year)
            // The month's first and last day exist: `from` and `through` lie in years 1…9999.
            let first = (try? CivilDate(year: year, month: month, day: 1)) ?? from
            let last = (try? CivilDate(year: year, month: month, day: monthLength)) ?? through
            let inRange = max(first, from)...min(last, through)
            let counted = length(inRange) - except.reduce(0) { $0 + overlap($1, inRange) }
            total += perMonth * counted / monthLength
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
        }
        return total
    }
}
