#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A day of the proleptic Gregorian calendar — year, month and day, with no time and no zone.
///
/// Prayer times belong to a civil day in a place's time zone, so services take a `CivilDate` and a
/// `TimeZone` rather than a `Date` (an instant). The value is always a real day:
///
/// ```swift
/// let day = try CivilDate(year: 2026, month: 11, day: 29)
/// let parsed = try CivilDate(parsing: "2026-11-29")      // same day
/// let next = day.adding(days: 1)                           // 2026-11-30
/// _ = try CivilDate(parsing: "2026-02-30")                 // throws: February 2026 has 28 days
/// ```
public struct CivilDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    // Packed into four bytes: schedules and logs hold many dates.
    private let storedYear: Int16
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// The year, 1…9999.
    public var year: Int { Int(storedYear) }
    /// The month, 1…12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, 1…28, 29, 30 or 31.
    public var day: Int { Int(storedDay) }

    /// The years a `CivilDate` can hold.
    public static let yearRange: ClosedRange<Int> = 1...9999

    /// Creates a day after checking that it exists.
    /// - Throws: ``ValidationError`` for a month outside 1…12, a day the month does not have, or a
    ///   year outside 1…9999.
    public init(year: Int, month: Int, day: Int) throws(ValidationError) {
        guard Self.yearRange.contains(year) else {
            throw ValidationError(field: "date", message: "year must be between 1 and 9999, got \(year)")
        }
        guard (1...12).contains(month) else {
            throw ValidationError(field: "date", message: "month must be between 1 and 12, got \(month)")
        }
        let length = Self.daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            let name = Self.monthNames[month - 1]
            throw ValidationError(
                field: "date", message: "\(name) \(year) has \(length) days, so day \(day) does not exist"
            )
        }
        storedYear = Int16(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Parses `YYYY-MM-DD` (ISO 8601 calendar date, four-digit year).
    /// - Throws: ``ValidationError`` for text of another shape or a day that does not exist; a date
    ///   whose year has a sign or more than four digits (`+12026-01-01`, ISO 8601's expanded form) is
    ///   refused for its year when that lies outside ``yearRange``.
    public init(parsing text: String) throws(ValidationError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        func isDigits(_ part: Substring) -> Bool { !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy(isDigits), let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            let expanded = Self.expandedYear(text)
            if let expanded, !Self.yearRange.contains(expanded.value ?? 0) {
                throw ValidationError(
                    field: "date",
                    message: "year must be between \(Self.yearRange.lowerBound) and \(Self.yearRange.upperBound), "
                        + "got \(expanded.text)")
            }
            throw ValidationError(field: "date", message: "date must look like YYYY-MM-DD, got '\(text)'")
        }
        try self.init(year: year, month: month, day: day)
    }

    /// The year of a date written `±YYYYY-MM-DD`: a sign or more than four digits before `-MM-DD`;
    /// `value` is `nil` when it does not fit an `Int`, and `text` is the year as given, without
    /// leading zeros.
    private static func expandedYear(_ text: String) -> (value: Int?, text: String)? {
        var rest = Substring(text)
        let sign = rest.first.flatMap { $0 == "+" || $0 == "-" ? $0 : nil }
        if sign != nil { rest = rest.dropFirst() }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            sign != nil || parts[0].count > 4
        else { return nil }
        let digits = parts[0].drop { $0 == "0" }
        let magnitude = digits.isEmpty ? "0" : String(digits)
        let written = (sign == "-" && magnitude != "0" ? "-" : "") + magnitude
        return (Int(written), written)
    }

    /// Creates the day that is `days` days after 1970-01-01 (negative before it).
    ///
    /// Uses Howard Hinnant's `civil_from_days` algorithm ("chrono-Compatible Low-Level Date
    /// Algorithms"), exact for the whole proleptic Gregorian calendar.
    /// - Precondition: the result lies in years 1…9999.
    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        precondition(Self.yearRange.contains(year), "CivilDate out of range: year \(year)")
        storedYear = Int16(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The civil day that `instant` falls on in `timeZone`: today in a place.
    ///
    /// ```swift
    /// let today = try CivilDate(containing: Date(), in: TimeZone(identifier: "Asia/Riyadh")!)
    /// ```
    /// - Throws: ``ValidationError`` when the instant is not finite or falls outside years 1…9999.
    public init(containing instant: Date, in timeZone: TimeZone) throws(ValidationError) {
        try self.init(containing: instant, in: TimeZoneName(timeZone))
    }

    /// The civil day that `instant` falls on in a zone given by name: today in a place.
    /// - Throws: ``ValidationError`` when the instant is not finite or falls outside years 1…9999.
    public init(containing instant: Date, in zone: TimeZoneName) throws(ValidationError) {
        // 0001-01-01 and the day after 9999-12-31, as seconds since 1970 (a zone moves them < 1 day).
        let range = -719_162 * 86_400.0..<2_932_897 * 86_400.0
        let outside = ValidationError(
            field: "date", message: "the instant \(instant.timeIntervalSince1970) s from 1970 is outside years 1…9999")
        let seconds = instant.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { throw outside }
        let local = seconds + Double(zone.offset(at: instant))
        guard range.contains(local) else { throw outside }
        self.init(daysSince1970: Self.dayNumber(localSeconds: local))
    }

    /// The day (days from 1970-01-01) of a moment written as local seconds since 1970 (UTC seconds
    /// plus the zone's offset): floor division, so that a moment before 1970 falls on the day before.
    package static func dayNumber(localSeconds: Double) -> Int {
        Int((localSeconds / 86_400).rounded(.down))
    }

    /// The number of days from 1970-01-01 to this day (negative before it).
    ///
    /// Howard Hinnant's `days_from_civil`.
    public var daysSince1970: Int {
        Self.daysFromCivil(year: year, month: month, day: day)
    }

    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Returns the day `days` days later (earlier when negative). The result must lie within
    /// ``yearRange`` (a programming error otherwise); ``clampedAdding(days:)`` never traps.
    public func adding(days: Int) -> CivilDate {
        // A step that stays within the month (most of the engine's steps of a day) is the same month,
        // the day after a month's last is the next month's first; any other step goes through the day
        // count, two divisions by the era's and the year's length.
        if days > -28, days < 28, case let day = Int(storedDay) + days, day >= 1 {
            if day <= 28 || day <= Self.daysIn(month: month, year: year) {
                return CivilDate(storedYear: storedYear, storedMonth: storedMonth, storedDay: UInt8(day))
            }
            if days == 1, storedMonth < 12 {
                return CivilDate(storedYear: storedYear, storedMonth: storedMonth + 1, storedDay: 1)
            }
            if days == 1, storedYear < Self.yearRange.upperBound {
                return CivilDate(storedYear: storedYear + 1, storedMonth: 1, storedDay: 1)
            }
        }
        return CivilDate(daysSince1970: daysSince1970 + days)
    }

    /// A day from its stored parts, already known to exist.
    private init(storedYear: Int16, storedMonth: UInt8, storedDay: UInt8) {
        (self.storedYear, self.storedMonth, self.storedDay) = (storedYear, storedMonth, storedDay)
    }

    /// The first day PrayKit represents, 0001-01-01.
    public static let first = CivilDate(daysSince1970: -719_162)
    /// The last day PrayKit represents, 9999-12-31.
    public static let last = CivilDate(daysSince1970: 2_932_896)

    /// The day `days` days later (earlier when negative), kept within ``first`` … ``last``.
    public func clampedAdding(days: Int) -> CivilDate {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(days)
        let target = overflow ? (days < 0 ? Int.min : Int.max) : sum
        return CivilDate(daysSince1970: min(max(target, Self.first.daysSince1970), Self.last.daysSince1970))
    }

    /// The ISO weekday: 1 is Monday, 7 is Sunday.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (ISO 4).
        let offset = (daysSince1970 + 3) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// The English name of the weekday, such as `"Sunday"`.
    public var weekdayName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][isoWeekday - 1]
    }

    /// The day of the year, 1…366.
    public var dayOfYear: Int {
        daysSince1970 - Self.daysFromCivil(year: year, month: 1, day: 1) + 1
    }

    /// Whether `year` has 366 days in the Gregorian calendar.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        "\(year.zeroPadded(4))-\(month.zeroPadded(2))-\(day.zeroPadded(2))"
    }

    /// Orders days chronologically.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Decodes a `YYYY-MM-DD` string.
    /// - Throws: `DecodingError.dataCorrupted` for a string that is not a real day.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes as a `YYYY-MM-DD` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
}
