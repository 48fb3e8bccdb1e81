#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a congregation stands for each prayer (the iqama), and the Friday prayer's times: per
/// prayer a fixed clock time or minutes after the adhan, optionally rounded up to a multiple of
/// some minutes; on Fridays the Jumu'ah time(s) replace dhuhr's.
///
/// The text form is what preferences store and the command line takes:
///
/// ```swift
/// let iqama = try IqamaSettings(parsing: "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15",
///                               jumuah: "13:15,14:00", roundingMinutes: 5)
/// iqama.iqama(of: fajr, in: schedule)   // 20 minutes after fajr's adhan, rounded up to 5 minutes
/// ```
public struct IqamaSettings: Hashable, Sendable, CustomStringConvertible {
    /// How a prayer's iqama is set.
    public enum Rule: Hashable, Sendable, CustomStringConvertible {
        /// A fixed local clock time, minutes after midnight.
        case fixed(minutesAfterMidnight: Int)
        /// This many minutes after the adhan.
        case afterAdhan(minutes: Int)

        /// `13:30` or `+15`.
        public var description: String {
            switch self {
            case .fixed(let minutes): "\((minutes / 60).zeroPadded(2)):\((minutes % 60).zeroPadded(2))"
            case .afterAdhan(let minutes): "+\(minutes)"
            }
        }
    }

    /// The rule of each of the five prayers that has one.
    public var rules: [Prayer: Rule]
    /// Minutes after the adhan are rounded up to a multiple of this (5 → 13:23 becomes 13:25), 1…60;
    /// `nil`, 1 or a value outside 1…60 keeps the minute.
    public var roundingMinutes: Int?
    /// The Friday prayer's times, minutes after midnight, earliest first.
    public var jumuah: [Int]

    /// Creates settings.
    public init(rules: [Prayer: Rule] = [:], roundingMinutes: Int? = nil, jumuah: [Int] = []) {
        self.rules = rules
        self.roundingMinutes = roundingMinutes
        self.jumuah = jumuah.sorted()
    }

    /// Reads `fajr=+20,dhuhr=13:30,…`, Jumu'ah times `13:15,14:00` and a rounding.
    /// - Throws: ``ValidationError`` naming what is wrong.
    public init(parsing text: String, jumuah jumuahText: String = "", roundingMinutes: Int? = nil)
        throws(ValidationError)
    {
        var rules: [Prayer: Rule] = [:]
        for item in text.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard pair.count == 2, let prayer = Prayer(rawValue: pair[0].lowercased()), prayer.isObligatory else {
                throw ValidationError(
                    field: "iqama",
                    message:
                        "iqama '\(item)' must look like fajr=+20 or dhuhr=13:30, for fajr, dhuhr, asr, maghrib or isha")
            }
            guard rules[prayer] == nil else {
                throw ValidationError(field: "iqama", message: "iqama gives \(prayer) twice")
            }
            if pair[1].hasPrefix("+") {
                guard let minutes = Int(pair[1].dropFirst()), (0...180).contains(minutes) else {
                    throw ValidationError(
                        field: "iqama", message: "iqama for \(prayer) must be +0 to +180 minutes, got '\(pair[1])'")
                }
                rules[prayer] = .afterAdhan(minutes: minutes)
            } else {
                rules[prayer] = .fixed(minutesAfterMidnight: try Self.clockTime(pair[1], field: "iqama"))
            }
        }
        var jumuah: [Int] = []
        for item in jumuahText.split(separator: ",") {
            jumuah.append(try Self.clockTime(item.trimmingWhitespace(), field: "jumuah"))
        }
        if let roundingMinutes, !(1...60).contains(roundingMinutes) {
            throw ValidationError(
                field: "iqama-rounding", message: "iqama-rounding must be 1 to 60 minutes, got \(roundingMinutes)")
        }
        self.init(rules: rules, roundingMinutes: roundingMinutes, jumuah: jumuah)
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { rules.isEmpty && jumuah.isEmpty }

    /// `fajr=+20,dhuhr=13:30` in prayer order.
    public var description: String {
        Prayer.obligatory.compactMap { prayer in rules[prayer].map { "\(prayer)=\($0)" } }.joined(separator: ",")
    }

    /// The iqama of `time` (one of the five prayers), in `schedule`'s zone and day; `nil` when no rule
    /// is set for it.
    public func iqama(of time: PrayerTime, in schedule: PrayerSchedule) -> Date? {
        switch rules[time.prayer] {
        case nil: return nil
        case .afterAdhan(let minutes):
            var instant = time.date.addingTimeInterval(Double(minutes) * 60)
            // A rounding outside 1…60 minutes (which `init(parsing:)` refuses) rounds nothing.
            if let step = roundingMinutes, (2...60).contains(step) {
                let offset = Double(schedule.zone.offset(at: instant))
                let local = instant.timeIntervalSince1970 + offset
                let stepSeconds = Double(step * 60)
                instant = Date(timeIntervalSince1970: (local / stepSeconds).rounded(.up) * stepSeconds - offset)
            }
            return instant
        case .fixed(let minutes):
            return Self.instant(minutes, on: schedule.date, in: schedule.zone)
        }
    }

    /// The Jumu'ah times of `schedule`'s day when it is a Friday; empty otherwise.
    public func jumuahTimes(in schedule: PrayerSchedule) -> [Date] {
        guard schedule.date.isoWeekday == 5 else { return [] }
        return jumuah.compactMap { Self.instant($0, on: schedule.date, in: schedule.zone) }
    }

    /// The instant of a local clock time on a civil day (the later one when the clock repeats it; the
    /// first instant after it when the clock skips it).
    package static func instant(_ minutes: Int, on date: CivilDate, in zone: TimeZone) -> Date? {
        instant(minutes, on: date, in: TimeZoneName(zone))
    }

    /// The same, in a zone given by name.
    package static func instant(_ minutes: Int, on date: CivilDate, in zone: TimeZoneName) -> Date? {
        let midnightUTC = Double(date.daysSince1970) * 86_400 + Double(minutes) * 60
        var guess = midnightUTC - Double(zone.offset(at: Date(timeIntervalSince1970: midnightUTC)))
        guess = midnightUTC - Double(zone.offset(at: Date(timeIntervalSince1970: guess)))
        return Date(timeIntervalSince1970: guess)
    }

    private static func clockTime(_ text: String, field: String) throws(ValidationError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else {
            throw ValidationError(field: field, message: "\(field) time must look like 13:30, got '\(text)'")
        }
        return hour * 60 + minute
    }
}
