/// The Umm al-Qura calendar as published: the first day and length of every month from 1343 to
/// 1500 AH (1924-08-01 … 2077-11-16).
///
/// Source: the table of the `hijridate` package (Dr. Mohammed Alshehri; DOI 10.5281/zenodo.11200950),
/// compiled from the Umm al-Qura newspaper (1343–1355), the KFUPM comparison calendar (1356–1411), the
/// official comparative calendar books (1412–1450) and KACST (1451–1500). Foundation's
/// `.islamicUmmAlQura` calendar (ICU's computed table) differs from it in 740 of the 1896 month
/// starts, so PrayKit carries the table itself (`UmmAlQuraTable+Data.swift`).
enum UmmAlQuraTable {
    /// The first and last Hijri years of the table.
    static let years: ClosedRange<Int> = 1343...1500

    /// The first day of every month and, last, the day after the table ends; days from 1970-01-01.
    private static let starts: [Int] = {
        var starts = [firstMonthStart]
        // By byte, not by Character: this runs in the first request of every process.
        for code in monthLengthCodes.utf8 {
            let length: Int
            switch code {
            case UInt8(ascii: "8"): length = 28
            case UInt8(ascii: "9"): length = 29
            case UInt8(ascii: "0"): length = 30
            default: length = 31
            }
            starts.append((starts.last ?? firstMonthStart) + length)
        }
        return starts
    }()

    /// The days the table covers, from 1970-01-01.
    static var days: Range<Int> { starts[0]..<starts[starts.count - 1] }

    /// The Hijri date of a day (from 1970-01-01), or `nil` outside the table.
    static func date(daysSince1970 day: Int) -> (year: Int, month: Int, day: Int)? {
        guard days.contains(day) else { return nil }
        // The last month start at or before the day.
        var low = 0
        var high = starts.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= day { low = middle } else { high = middle }
        }
        return (years.lowerBound + low / 12, low % 12 + 1, day - starts[low] + 1)
    }

    /// The first day (from 1970-01-01) of a month, or `nil` outside the table.
    static func monthStart(year: Int, month: Int) -> Int? {
        index(year: year, month: month).map { starts[$0] }
    }

    /// The length of a month in days, or `nil` outside the table.
    static func monthLength(year: Int, month: Int) -> Int? {
        index(year: year, month: month).map { starts[$0 + 1] - starts[$0] }
    }

    private static func index(year: Int, month: Int) -> Int? {
        guard years.contains(year), (1...12).contains(month) else { return nil }
        return (year - years.lowerBound) * 12 + month - 1
    }
}
