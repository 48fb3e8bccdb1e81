#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A moment as a year and its fraction, as the World Magnetic Model counts time: 2025.0 is the start
/// of 1 January 2025, 2025.5 about 2 July 2025.
///
/// ```swift
/// let year = DecimalYear(try CivilDate(parsing: "2026-12-01"))
/// print(year.value)   // 2026.9151  (2026 + 334/365)
/// ```
public struct DecimalYear: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year with its fraction.
    public let value: Double

    /// A decimal year given as a number.
    public init(_ value: Double) {
        self.value = value
    }

    /// The start of a civil day as a decimal year: year + (day of the year − 1) / days in the year.
    ///
    /// This is the count of the WMM's own software (`MAG_DateToYear` in the reference C library):
    /// 1 January is `year.0`, and a leap year is divided into 366 days.
    public init(_ date: CivilDate) {
        let days = CivilDate.isLeap(date.year) ? 366.0 : 365.0
        value = Double(date.year) + Double(date.dayOfYear - 1) / days
    }

    /// The value with two decimals: `2026.92`.
    public var description: String {
        value.fixed(2)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: DecimalYear, rhs: DecimalYear) -> Bool {
        lhs.value < rhs.value
    }
}
