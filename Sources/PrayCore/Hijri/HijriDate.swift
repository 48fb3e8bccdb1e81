/// A day of the Hijri (Islamic lunar) calendar: year, month and day.
///
/// A `HijriDate` is checked only for shape (month 1…12, day 1…31); whether the 30th of a month
/// exists depends on the calendar, which a ``HijriService`` decides. (Months have 29 or 30 days, but
/// the published Umm al-Qura table has three of 31 and five of 28, in 1343–1364.)
///
/// ```swift
/// let eid = try HijriDate(parsing: "1447-10-01")
/// print(eid.month, eid.monthName)   // shawwal, "Shawwal"
/// ```
public struct HijriDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The year after the Hijra, 1 or later.
    public let year: Int
    /// The month, 1…12.
    public let monthNumber: Int
    /// The day of the month, 1…31.
    public let day: Int

    /// Creates a date after checking its shape.
    /// - Throws: ``HijriError`` for a year below 1 or above 9999, a month outside 1…12 or a day
    ///   outside 1…31.
    public init(year: Int, month: Int, day: Int) throws(HijriError) {
        guard (1...9999).contains(year) else {
            throw HijriError(.invalidDate, message: "Hijri year must be between 1 and 9999, got \(year)")
        }
        guard (1...12).contains(month) else {
            throw HijriError(.invalidDate, message: "Hijri month must be between 1 and 12, got \(month)")
        }
        guard (1...31).contains(day) else {
            throw HijriError(.invalidDate, message: "a Hijri month has 29 or 30 days, so day \(day) does not exist")
        }
        self.year = year
        self.monthNumber = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (the year may have fewer than four digits).
    /// - Throws: ``HijriError`` for text of another shape or an impossible month or day.
    public init(parsing text: String) throws(HijriError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...4).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            throw HijriError(.invalidDate, message: "a Hijri date must look like YYYY-MM-DD, got '\(text)'")
        }
        try self.init(year: year, month: month, day: day)
    }

    /// The month.
    public var month: HijriMonth { HijriMonth(rawValue: monthNumber) ?? .muharram }

    /// The month's name in English transliteration: `"Jumada al-Akhirah"`.
    public var monthName: String { month.name }

    /// The month's name in Arabic: `"جمادى الآخرة"`.
    public var monthNameArabic: String { month.arabicName }

    /// `YYYY-MM-DD`, the year padded to four digits.
    public var description: String {
        "\(year.zeroPadded(4))-\(monthNumber.zeroPadded(2))-\(day.zeroPadded(2))"
    }

    /// Orders dates chronologically.
    public static func < (lhs: HijriDate, rhs: HijriDate) -> Bool {
        (lhs.year, lhs.monthNumber, lhs.day) < (rhs.year, rhs.monthNumber, rhs.day)
    }

    /// Decodes `YYYY-MM-DD`.
    /// - Throws: `DecodingError.dataCorrupted` for text that is not a Hijri date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            try self.init(parsing: try container.decode(String.self))
        } catch let error as HijriError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes as `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The twelve months of the Hijri year.
public enum HijriMonth: Int, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Muharram, the first month.
    case muharram = 1
    /// Safar.
    case safar
    /// Rabi al-Awwal.
    case rabiAlAwwal
    /// Rabi al-Thani.
    case rabiAlThani
    /// Jumada al-Ula.
    case jumadaAlUla
    /// Jumada al-Akhirah.
    case jumadaAlAkhirah
    /// Rajab.
    case rajab
    /// Sha'ban.
    case shaban
    /// Ramadan, the month of fasting.
    case ramadan
    /// Shawwal.
    case shawwal
    /// Dhu al-Qa'dah.
    case dhuAlQadah
    /// Dhu al-Hijjah, the month of the pilgrimage.
    case dhuAlHijjah

    /// The English transliteration.
    public var name: String {
        [
            "Muharram", "Safar", "Rabi al-Awwal", "Rabi al-Thani", "Jumada al-Ula", "Jumada al-Akhirah", "Rajab",
            "Sha'ban", "Ramadan", "Shawwal", "Dhu al-Qa'dah", "Dhu al-Hijjah",
        ][rawValue - 1]
    }

    /// The Arabic name.
    public var arabicName: String {
        [
            "محرم", "صفر", "ربيع الأول", "ربيع الآخر", "جمادى الأولى", "جمادى الآخرة", "رجب", "شعبان", "رمضان", "شوال",
            "ذو القعدة", "ذو الحجة",
        ][rawValue - 1]
    }

    /// The English transliteration.
    public var description: String { name }
}

/// A Hijri calendar.
public enum HijriCalendar: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The official calendar of Saudi Arabia (Umm al-Qura), from its published table for 1343–1500 AH;
    /// outside those years, the tabular calendar.
    case ummAlQura = "umm-al-qura"
    /// The tabular (civil, arithmetic) Islamic calendar: 30-year cycles with leap years 2, 5, 7, 10,
    /// 13, 16, 18, 21, 24, 26 and 29, counted from Friday 16 July 622 (Julian).
    case civil = "civil"

    /// The raw value, as on the command line.
    public var description: String { rawValue }
}

/// A Hijri date that cannot be made or converted.
public typealias HijriError = PrayKitError<HijriErrorKind>

/// What kind of failure a ``HijriError`` is.
public enum HijriErrorKind: String, Hashable, Sendable {
    /// The date does not exist (month 13, the 30th of a 29-day month).
    case invalidDate
    /// The date is outside the years the calendar can convert.
    case outOfRange
    /// The day offset is outside −2…+2.
    case invalidOffset
}
