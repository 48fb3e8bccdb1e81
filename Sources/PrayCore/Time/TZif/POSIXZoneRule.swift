/// The rule of a TZif file's footer: a POSIX `TZ` string (POSIX.1-2017 §8.3, with the extensions of
/// RFC 8536 §3.3.1: transition times from −167 to 167 hours), which gives a zone's offsets for every
/// instant after the file's last transition — `GMT0BST,M3.5.0/1,M10.5.0`, `<+0330>-3:30`,
/// `IST-1GMT0,M10.5.0,M3.5.0/1` (daylight saving time in winter), `EST5EDT,0/0,J365/25` (all year).
package struct POSIXZoneRule: Equatable, Sendable {
    /// Standard time's offset, seconds east of UTC (POSIX writes it west of UTC: `EST5` is −18,000).
    package let standardOffset: Int
    /// Daylight saving time's offset and when it starts and ends; `nil` for a zone without one.
    package let daylight: Daylight?

    /// Daylight saving time in a POSIX rule.
    package struct Daylight: Equatable, Sendable {
        /// Its offset, seconds east of UTC (standard time's plus an hour unless the string says).
        package let offset: Int
        /// The day and local time (standard time) it starts on.
        package let start: Transition
        /// The day and local time (daylight saving time) it ends on.
        package let end: Transition
    }

    /// A day of the year and a time of that day, seconds from its midnight (−167 to 167 hours).
    package struct Transition: Equatable, Sendable {
        /// How the day is written.
        package enum Day: Equatable, Sendable {
            /// `Jn`: day 1…365, never counting February 29.
            case julian(Int)
            /// `n`: day 0…365, counting February 29.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (1…5, 5 the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        /// The day.
        package let day: Day
        /// Seconds from that day's midnight.
        package let seconds: Int

        /// The local seconds since 1970 of this transition in `year`, on the clock whose offset is
        /// in effect before it.
        func localSeconds(in year: Int) -> Int {
            let days: Int
            switch day {
            case .julian(let number):
                // February 29 is never counted: from March on, a leap year's day is one later.
                let leapDay = CivilDays.isLeap(year) && number >= 60 ? 1 : 0
                days = CivilDays.daysSince1970(year: year, month: 1, day: 1) + number - 1 + leapDay
            case .zeroBased(let number):
                days = CivilDays.daysSince1970(year: year, month: 1, day: 1) + number
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDays.daysSince1970(year: year, month: month, day: 1)
                var day = 1 + (weekday - CivilDays.weekday(first) + 7) % 7 + (week - 1) * 7
                while day > CivilDays.daysIn(month: month, year: year) { day -= 7 }
                days = first + day - 1
            }
            return days * 86_400 + seconds
        }
    }

    /// The rule a footer string states, or `nil` when it is not one (RFC 8536 allows an empty footer:
    /// no rule).
    package init?(_ text: Substring.UTF8View) {
        var reader = Reader(bytes: Array(text))
        guard reader.name(), let standard = reader.offset() else { return nil }
        standardOffset = -standard
        guard !reader.atEnd else {
            daylight = nil
            return
        }
        guard reader.name() else { return nil }
        var offset = standardOffset + 3600
        if !reader.atEnd, reader.peek != UInt8(ascii: ",") {
            guard let given = reader.offset() else { return nil }
            offset = -given
        }
        let start: Transition
        let end: Transition
        if reader.atEnd {
            // No rule: POSIX leaves it to the implementation; the United States' (as tzcode does).
            let twoAM = 7200
            start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), seconds: twoAM)
            end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), seconds: twoAM)
        } else {
            guard reader.skip(UInt8(ascii: ",")), let first = reader.transition(), reader.skip(UInt8(ascii: ",")),
                let second = reader.transition(), reader.atEnd
            else { return nil }
            (start, end) = (first, second)
        }
        daylight = Daylight(offset: offset, start: start, end: end)
    }

    /// The offset at `instant` (Unix seconds), an instant from which it holds at least (`nil`: always
    /// before) and the next instant it changes (`nil`: never).
    package func period(at instant: Int64) -> (offset: Int, from: Int64?, until: Int64?) {
        guard let daylight, daylight.offset != standardOffset else { return (standardOffset, nil, nil) }
        // The year of the instant on standard time's clock, and the transitions of the years around it:
        // a transition may lie up to 167 hours outside its own year.
        let year = CivilDays.year(ofDay: Int(floorDivide(instant + Int64(standardOffset), 86_400)))
        // Eight events in order, on the stack: a server asks this for every request past a file's table.
        return withUnsafeTemporaryAllocation(of: (at: Int64, daylight: Bool).self, capacity: 8) { events in
            var count = 0
            // Insertion in order; at one instant, daylight time's start comes after the end before it and
            // wins (a rule in force all year ends on December 31 at 24:00 and starts again at once).
            func insert(_ at: Int64, isDaylight: Bool) {
                var index = count
                while index > 0, events[index - 1].at > at || (events[index - 1].at == at && events[index - 1].daylight)
                {
                    events[index] = events[index - 1]
                    index -= 1
                }
                events[index] = (at, isDaylight)
                count += 1
            }
            for candidate in (year - 1)...(year + 2) {
                // The start on standard time's clock, the end on daylight time's.
                insert(Int64(daylight.start.localSeconds(in: candidate) - standardOffset), isDaylight: true)
                insert(Int64(daylight.end.localSeconds(in: candidate) - daylight.offset), isDaylight: false)
            }
            var current = count - 1
            while current >= 0, events[current].at > instant { current -= 1 }
            guard current >= 0 else { return (standardOffset, nil, nil) }
            let inDaylight = events[current].daylight
            var first = current
            while first > 0, events[first - 1].daylight == inDaylight { first -= 1 }
            var next = current + 1
            while next < count, events[next].daylight == inDaylight { next += 1 }
            // No later event changes the offset: daylight time all year.
            let offset = inDaylight ? daylight.offset : standardOffset
            return (offset, events[first].at, next < count ? events[next].at : nil)
        }
    }

    /// Reads a footer's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` of letters, digits, `+` and `-`.
        mutating func name() -> Bool {
            if skip(UInt8(ascii: "<")) {
                let start = index
                while let byte = peek, byte != UInt8(ascii: ">") {
                    guard
                        Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+")
                            || byte == UInt8(ascii: "-")
                    else { return false }
                    index += 1
                }
                return index - start >= 3 && skip(UInt8(ascii: ">"))
            }
            let start = index
            while let byte = peek, Self.isLetter(byte) { index += 1 }
            return index - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]`, hours at most `maximumHours`: seconds (signed as written).
        mutating func time(maximumHours: Int) -> Int? {
            var sign = 1
            if skip(UInt8(ascii: "-")) { sign = -1 } else { _ = skip(UInt8(ascii: "+")) }
            guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
            var seconds = hours * 3600
            if skip(UInt8(ascii: ":")) {
                guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if skip(UInt8(ascii: ":")) {
                    guard let extra = number(maximumDigits: 2), extra < 60 else { return nil }
                    seconds += extra
                }
            }
            return sign * seconds
        }

        /// A zone's offset, west of UTC as POSIX writes it (at most 24 hours).
        mutating func offset() -> Int? { time(maximumHours: 24) }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (02:00 when absent).
        mutating func transition() -> Transition? {
            let day: Transition.Day
            if skip(UInt8(ascii: "J")) {
                guard let number = number(maximumDigits: 3), (1...365).contains(number) else { return nil }
                day = .julian(number)
            } else if skip(UInt8(ascii: "M")) {
                guard let month = number(maximumDigits: 2), (1...12).contains(month), skip(UInt8(ascii: ".")),
                    let week = number(maximumDigits: 1), (1...5).contains(week), skip(UInt8(ascii: ".")),
                    let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let number = number(maximumDigits: 3), (0...365).contains(number) else { return nil }
                day = .zeroBased(number)
            }
            var seconds = 7200
            if skip(UInt8(ascii: "/")) {
                guard let time = time(maximumHours: 167) else { return nil }
                seconds = time
            }
            return Transition(day: day, seconds: seconds)
        }

        private mutating func number(maximumDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while let byte = peek, Self.isDigit(byte), digits < maximumDigits {
                value = value * 10 + Int(byte - 48)
                digits += 1
                index += 1
            }
            return digits == 0 ? nil : value
        }

        private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    }
}

/// Floor division of Unix seconds (toward −∞, so that an instant before 1970 falls on the day before).
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
}

/// Proleptic Gregorian day arithmetic for any year (``CivilDate`` keeps to years 1…9999; a zone's rule
/// is asked about the years around an instant, which may lie beyond).
enum CivilDays {
    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year of a day counted from 1970-01-01 (Hinnant's `civil_from_days`).
    static func year(ofDay days: Int) -> Int {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (shiftedMonth >= 10 ? 1 : 0)
    }

    /// The weekday of a day counted from 1970-01-01: 0 is Sunday (1970-01-01 was a Thursday).
    static func weekday(_ days: Int) -> Int {
        let weekday = (days + 4) % 7
        return weekday < 0 ? weekday + 7 : weekday
    }
}
