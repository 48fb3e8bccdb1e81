import PrayCore

/// The tabular (arithmetic, "civil") Islamic calendar: months of 30 and 29 days alternating, the
/// twelfth month 30 days in the 11 leap years of each 30-year cycle (2, 5, 7, 10, 13, 16, 18, 21,
/// 24, 26, 29), counted from Friday 16 July 622 (Julian), JDN 1948440.
///
/// The arithmetic is that of E. M. Reingold and N. Dershowitz, *Calendrical Calculations*
/// (3rd ed., ch. 6): days before year y are 354·(y − 1) + ⌊(3 + 11·y)/30⌋, before month m
/// 29·(m − 1) + ⌊m/2⌋.
enum TabularIslamicCalendar {
    /// 1 Muharram 1 AH as days from 1970-01-01 (JDN 1948440 − 2440588).
    static let epoch = -492_148

    /// The day count (from 1970-01-01) of a Hijri date; the date's day may exceed the month (no check).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        epoch + 354 * (year - 1) + floorDivide(3 + 11 * year, 30) + 29 * (month - 1) + month / 2 + day - 1
    }

    /// The Hijri year, month and day of a day count (from 1970-01-01). Years before 1 AH come out as 0
    /// or below; callers check.
    static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let n = days - epoch
        var year = floorDivide(30 * n + 10646, 10631)
        // The closed form can be one year off at cycle edges; step to the year that contains the day.
        while daysSince1970(year: year + 1, month: 1, day: 1) <= days { year += 1 }
        while daysSince1970(year: year, month: 1, day: 1) > days { year -= 1 }
        let dayOfYear = days - daysSince1970(year: year, month: 1, day: 1)
        var month = min(12, dayOfYear / 29 + 1)
        while month > 1 && daysSince1970(year: year, month: month, day: 1) > days { month -= 1 }
        return (year, month, days - daysSince1970(year: year, month: month, day: 1) + 1)
    }

    /// Whether `year` has 355 days.
    static func isLeap(_ year: Int) -> Bool {
        floorDivide(14 + 11 * year, 30) - floorDivide(3 + 11 * year, 30) == 1
    }

    /// The length of a month: 30 for odd months, 29 for even ones, 30 for the twelfth in a leap year.
    static func monthLength(year: Int, month: Int) -> Int {
        month % 2 == 1 || (month == 12 && isLeap(year)) ? 30 : 29
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
