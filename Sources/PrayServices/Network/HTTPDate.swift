import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An HTTP-date (RFC 9110 §5.6.7) as `Retry-After` carries it: `Sun, 06 Nov 1994 08:49:37 GMT`
/// (IMF-fixdate). Written by hand because `DateFormatter` lives in full Foundation, which the
/// start-up path does without (docs/performance.md, "Zones, Foundation and ICU").
///
/// It reads what the `DateFormatter` it replaced (`EEE, dd MMM yyyy HH:mm:ss zzz`, POSIX locale)
/// read for such dates: names of days and months in any case, abbreviated or in full; the weekday
/// not checked against the date; a day, an hour, a minute or a second of one or two digits; runs of
/// spaces between the fields; the zone as `GMT`, `UTC`, `UT` or `Z`, or a numeric offset (`+0100`,
/// `+01:00`, `GMT+01:00`). A day the month does not have, an hour past 23, a second of 60 or
/// anything after the zone is no date. Zone abbreviations other than GMT's and UTC's (`PST`) and
/// RFC 850 and asctime dates are not read (they were not read before either, save the
/// abbreviations, which RFC 9110 does not allow).
enum HTTPDate {
    /// The instant `text` names, or `nil` when it is no HTTP-date (white space around it included).
    static func date(_ text: String) -> Date? {
        guard let comma = text.firstIndex(of: ","), isName(text[..<comma], in: weekdays) else { return nil }
        let rest = text[text.index(after: comma)...]
        // ", " then the fields separated by spaces: the comma needs a space after it.
        guard rest.first == " " else { return nil }
        let fields = rest.split(separator: " ")
        guard fields.count == 5, let day = number(fields[0], digits: 1...2),
            let month = months.firstIndex(where: { matches(fields[1], $0) }),
            let year = number(fields[2], digits: 4...4), let seconds = time(fields[3]),
            let offset = zoneOffset(fields[4]),
            let date = try? CivilDate(year: year, month: month + 1, day: day)
        else { return nil }
        return Date(timeIntervalSince1970: Double(date.daysSince1970 * 86_400 + seconds - offset))
    }
}

// MARK: - Helpers

extension HTTPDate {
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// Whether `text` is one of `names`, abbreviated to three letters or in full, in any case.
    private static func isName(_ text: Substring, in names: [String]) -> Bool {
        names.contains { matches(text, $0) }
    }

    /// Whether `text` is `name` (lowercase) abbreviated to three letters or in full, in any case.
    private static func matches(_ text: Substring, _ name: String) -> Bool {
        let lowered = text.lowercased()
        return lowered == name || lowered == name.prefix(3)
    }

    /// The value of `text` when it is only ASCII digits, as many as `digits` allows.
    private static func number(_ text: some StringProtocol, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `HH:MM:SS` as seconds of the day (each part of one or two digits), or `nil`.
    private static func time(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = number(parts[0], digits: 1...2),
            let minute = number(parts[1], digits: 1...2), let second = number(parts[2], digits: 1...2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// The zone's offset from UTC in seconds: `GMT`, `UTC`, `UT`, `Z`, `±hhmm`, `±hh:mm`, `GMT±hh:mm`.
    private static func zoneOffset(_ text: Substring) -> Int? {
        let upper = text.uppercased()
        if ["GMT", "UTC", "UT", "Z"].contains(upper) { return 0 }
        var numeric = Substring(upper)
        if numeric.hasPrefix("GMT") || numeric.hasPrefix("UTC") { numeric = numeric.dropFirst(3) }
        guard let sign = numeric.first, sign == "+" || sign == "-" else { return nil }
        let body = Array(numeric.dropFirst())
        let digits: [Character]
        switch body.count {
        case 4: digits = body
        case 5 where body[2] == ":": digits = Array(body[0..<2] + body[3..<5])
        default: return nil
        }
        guard let hours = number(String(digits[0..<2]), digits: 2...2),
            let minutes = number(String(digits[2..<4]), digits: 2...2), hours < 24, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
