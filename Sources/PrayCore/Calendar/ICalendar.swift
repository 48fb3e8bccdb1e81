#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// iCalendar (RFC 5545) as PrayKit writes it: `praykit calendar`'s files and the calendar feeds of
/// `praykit serve` (`/calendar.ics`, `/m/<slug>.ics`). Times are UTC (`DTSTART:20270305T051200Z`),
/// which every calendar converts to its viewer's zone; the place's zone is named in `X-WR-TIMEZONE`.
/// Lines end in CRLF and are folded at 75 octets, never inside a UTF-8 character; TEXT values are
/// escaped (``text(_:)``).
///
/// ```swift
/// let event = ICalendar.Event(
///     uid: "2027-03-05-fajr@example", stamp: now, start: fajr, end: iqama, summary: "Fajr")
/// let file = ICalendar.header(name: "Prayer times — London", zone: "Europe/London")
///     + ICalendar.lines(of: event) + ["END:VCALENDAR"]
/// let text = file.map(ICalendar.fold).joined()
/// ```
public enum ICalendar {
    /// A reminder before an event (`VALARM`, `ACTION:DISPLAY`).
    public struct Alarm: Hashable, Sendable {
        /// Minutes before the event's start; 0 rings at the start.
        public var minutesBefore: Int
        /// What it says.
        public var description: String

        /// Creates an alarm.
        public init(minutesBefore: Int, description: String) {
            self.minutesBefore = minutesBefore
            self.description = description
        }
    }

    /// One event (`VEVENT`).
    public struct Event: Hashable, Sendable {
        /// The same event always has the same UID, so a newer file or fetch updates it.
        public var uid: String
        /// `DTSTAMP`: when this instance of the event was made.
        public var stamp: Date
        /// The start.
        public var start: Date
        /// The end, after the start.
        public var end: Date
        /// The title.
        public var summary: String
        /// The longer text, if any.
        public var description: String?
        /// Where, by name.
        public var location: String?
        /// Where, by coordinates (`GEO`).
        public var coordinates: Coordinates?
        /// `CATEGORIES`.
        public var categories: [String]
        /// `SEQUENCE`: grows whenever the event changes, so a subscriber's calendar takes the change.
        public var sequence: Int?
        /// `LAST-MODIFIED`.
        public var lastModified: Date?
        /// The reminders.
        public var alarms: [Alarm]

        /// Creates an event, transparent (it does not make the viewer busy), in the category `Prayer`.
        public init(
            uid: String, stamp: Date, start: Date, end: Date, summary: String, description: String? = nil,
            location: String? = nil, coordinates: Coordinates? = nil, categories: [String] = ["Prayer"],
            sequence: Int? = nil, lastModified: Date? = nil, alarms: [Alarm] = []
        ) {
            self.uid = uid
            self.stamp = stamp
            self.start = start
            self.end = end
            self.summary = summary
            self.description = description
            self.location = location
            self.coordinates = coordinates
            self.categories = categories
            self.sequence = sequence
            self.lastModified = lastModified
            self.alarms = alarms
        }
    }

    /// The lines that open a calendar: `BEGIN:VCALENDAR`, the version, the product, `METHOD:PUBLISH`, its
    /// name (`X-WR-CALNAME`, and RFC 7986's `NAME` for a feed), its zone (`X-WR-TIMEZONE`) and how often
    /// a subscriber should fetch it again (`X-PUBLISHED-TTL`, and RFC 7986's `REFRESH-INTERVAL` for a
    /// feed).
    /// - Parameters:
    ///   - name: The calendar's name, as a calendar app lists it.
    ///   - zone: The IANA zone of the place.
    ///   - refresh: An ISO 8601 duration (`P1D`, `PT3H`).
    ///   - feed: Whether it is a feed subscribed to by URL (it then names itself both ways).
    public static func header(name: String, zone: String, refresh: String = "P1D", feed: Bool = false) -> [String] {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//PrayKit//praykit \(PrayKitInfo.version)//EN",
            "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-CALNAME:" + text(name),
        ]
        if feed { lines.append("NAME:" + text(name)) }
        lines.append("X-WR-TIMEZONE:" + zone)
        if feed { lines.append("REFRESH-INTERVAL;VALUE=DURATION:" + refresh) }
        lines.append("X-PUBLISHED-TTL:" + refresh)
        return lines
    }

    /// The lines of one event, `BEGIN:VEVENT` to `END:VEVENT`, unfolded.
    public static func lines(of event: Event) -> [String] {
        var lines = ["BEGIN:VEVENT", "UID:" + text(event.uid), "DTSTAMP:" + utc(event.stamp)]
        if let sequence = event.sequence { lines.append("SEQUENCE:\(sequence)") }
        if let modified = event.lastModified { lines.append("LAST-MODIFIED:" + utc(modified)) }
        lines += ["DTSTART:" + utc(event.start), "DTEND:" + utc(event.end), "SUMMARY:" + text(event.summary)]
        if let description = event.description { lines.append("DESCRIPTION:" + text(description)) }
        if !event.categories.isEmpty { lines.append("CATEGORIES:" + event.categories.map(text).joined(separator: ",")) }
        lines.append("TRANSP:TRANSPARENT")
        if let location = event.location { lines.append("LOCATION:" + text(location)) }
        if let coordinates = event.coordinates {
            lines.append("GEO:\(coordinates.latitude.formattedCompactly);\(coordinates.longitude.formattedCompactly)")
        }
        for alarm in event.alarms {
            lines += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + text(alarm.description),
                "TRIGGER:" + (alarm.minutesBefore == 0 ? "PT0M" : "-PT\(alarm.minutesBefore)M"), "END:VALARM",
            ]
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// `20261129T022000Z`: the instant in UTC, to the second.
    public static func utc(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded())
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let day = CivilDate(daysSince1970: days)
        return "\(day.year.zeroPadded(4))\(day.month.zeroPadded(2))\(day.day.zeroPadded(2))T"
            + "\((time / 3600).zeroPadded(2))\((time / 60 % 60).zeroPadded(2))\((time % 60).zeroPadded(2))Z"
    }

    /// A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped; a line break (LF, CR or
    /// CRLF) written `\n`; tab kept; and every other control character, which TEXT may not hold
    /// (§3.3.11, `TSAFE-CHAR`) and a calendar could show or act on, replaced by U+FFFD.
    public static func text(_ value: String) -> String {
        var result = ""
        var afterCarriageReturn = false
        for scalar in value.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !afterCarriageReturn { result += "\\n" }
            case "\t": result += "\t"
            case _ where scalar.isControlCharacter: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A content line folded at 75 octets (§3.1), never inside a UTF-8 character (nor, where it can be
    /// helped, between the scalars of one character), ending in CRLF.
    public static func fold(_ line: String) -> String {
        // Most lines are short: no folding, and no walk over their characters.
        guard line.utf8.count > 75 else { return line + "\r\n" }
        var result = ""
        result.reserveCapacity(line.utf8.count + line.utf8.count / 70 * 3 + 2)
        var current = 0
        for character in line {
            let size = character.utf8.count
            if current + size > 75 {
                result += "\r\n "
                current = 1
            }
            result.append(character)
            current += size
        }
        return result + "\r\n"
    }
}
