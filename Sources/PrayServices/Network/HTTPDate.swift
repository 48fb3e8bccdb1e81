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
/// read of such dates: names of days and months in any case, abbreviated to three letters or in
/// full; the weekday not checked against the date; numbers of any count of digits (`9`, `09`, a
/// year `26`); runs of spaces between the fields; the zone as `GMT`, `UTC`, `UT` or `Z`, or an
/// offset (`+1`, `+01`, `+0100`, `+01:00`, also after `GMT` or `UTC`). A day the month does not
/// have, an hour past 23, a second of 60 or anything after the zone is no date. Not read, of what
/// ICU's lenient parser also took: other zone abbreviations (`PST`, which RFC 9110 does not allow),
/// names cut shorter than three letters, `Sun.` for `Sun,`, tabs, three-digit offsets (`+130`).
/// Read here and not by ICU: `GMT+0100` and `+1:30`. Days before 1583 are Gregorian here, Julian in
/// ICU (a delay of zero either way).
enum HTTPDate {
    /// The instant `text` names, or `nil` when it is no HTTP-date (white space around it included).
    static func date(_ text: String) -> Date? {
        guard let comma = text.firstIndex(of: ","), isName(text[..<comma], in: weekdays) else { return nil }
        let rest = text[text.index(after: comma)...]
        // ", " then the fields separated by spaces: the comma needs a space after it.
        guard rest.first == " " else { return nil }
        let fields = rest.split(separator: " ")
        guard fields.count == 5, let day = number(fields[0]),
            let month = months.firstIndex(where: { matches(fields[1], $0) }),
            let year = number(fields[2]), let seconds = time(fields[3]),
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

    /// The value of `text` when it is one to nine ASCII digits (leading zeros included).
    private static func number(_ text: some StringProtocol) -> Int? {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `HH:MM:SS` as seconds of the day, or `nil`.
    private static func time(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = number(parts[0]), let minute = number(parts[1]),
            let second = number(parts[2]),
            hour < 24, minute < 60, second < 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// The zone's offset from UTC in seconds: `GMT`, `UTC`, `UT`, `Z`, or a sign and `h`, `hh`, `hhmm`,
    /// `h:mm` or `hh:mm`, alone or after `GMT` or `UTC`.
    private static func zoneOffset(_ text: Substring) -> Int? {
        let upper = text.uppercased()
        if ["GMT", "UTC", "UT", "Z"].contains(upper) { return 0 }
        var numeric = Substring(upper)
        if numeric.hasPrefix("GMT") || numeric.hasPrefix("UTC") { numeric = numeric.dropFirst(3) }
        guard let sign = numeric.first, sign == "+" || sign == "-" else { return nil }
        let body = numeric.dropFirst()
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        let hoursText: Substring
        let minutesText: Substring?
        switch (parts.count, body.count) {
        case (1, 1...2): (hoursText, minutesText) = (body, nil)
        case (1, 4): (hoursText, minutesText) = (body.prefix(2), body.suffix(2))
        case (2, _) where (1...2).contains(parts[0].count) && parts[1].count == 2:
            (hoursText, minutesText) = (parts[0], parts[1])
        default: return nil
        }
        guard let hours = number(hoursText), hours < 24 else { return nil }
        var minutes = 0
        if let minutesText {
            guard let value = number(minutesText), value < 60 else { return nil }
            minutes = value
        }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
