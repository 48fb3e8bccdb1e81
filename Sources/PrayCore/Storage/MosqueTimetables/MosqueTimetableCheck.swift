#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether a mosque's timetable is the mosque's: each of its adhan times against the sun's, so that a
/// file with the wrong month, the wrong zone (or summer time missed) or columns out of place is caught
/// when it is imported rather than used everywhere.
///
/// Real timetables differ from one another and from a calculation by minutes — a few minutes of
/// precaution, rounding, the elevation — except where conventions differ by much more: asr by the
/// Shafi'i or Hanafi shadow, fajr and isha by the angle (12° to 20°) and, where twilight lasts all
/// night, by the high-latitude rule, maghrib by the Ja'fari 4° (half an hour after sunset in a London
/// June). So each prayer has a window wide enough for every convention, and narrow enough that an hour
/// off is outside it where the sun moves fast enough to tell (``windows``):
///
/// | prayer  | earliest                              | latest                               |
/// |---------|---------------------------------------|--------------------------------------|
/// | fajr    | 15 min before the middle of the night | 30 min before sunrise                |
/// | sunrise | 15 min before sunrise                 | 15 min after sunrise                 |
/// | dhuhr   | 10 min before the calculated dhuhr    | 45 min after it                      |
/// | asr     | 15 min before the Shafi'i asr         | 30 min after the Hanafi asr          |
/// | maghrib | 5 min before sunset                   | 45 min after sunset                  |
/// | isha    | 30 min after sunset                   | 15 min after the middle of the night |
///
/// The middle of the night is halfway from sunset to the next sunrise. Days without sunrise or sunset,
/// or whose times a polar resolution estimated, are not checked.
///
/// ```swift
/// let findings = MosqueTimetableCheck.findings(in: timetable, calculated: own, otherMadhab: other)
/// for finding in findings { print(finding.date, finding.prayer, finding.given, finding.calculated) }
/// ```
public enum MosqueTimetableCheck {
    /// What a window's edge is measured from.
    public enum Reference: Hashable, Sendable {
        /// Halfway from sunset to the next sunrise (for fajr, the night before it).
        case middleOfNight
        /// Sunrise.
        case sunrise
        /// The calculated dhuhr (the sun's transit and the method's minutes).
        case dhuhr
        /// The earlier asr, of shadow factor 1 (Shafi'i, Maliki, Hanbali).
        case shafiiAsr
        /// The later asr, of shadow factor 2 (Hanafi).
        case hanafiAsr
        /// Sunset.
        case sunset
    }

    /// One edge of a window: minutes after (negative: before) a reference.
    public struct Edge: Hashable, Sendable {
        /// What it is measured from.
        public let reference: Reference
        /// Minutes after the reference; negative before it.
        public let minutes: Int

        /// Creates an edge.
        public init(_ reference: Reference, _ minutes: Int) {
            self.reference = reference
            self.minutes = minutes
        }
    }

    /// Where a mosque's time of a prayer may fall.
    public struct Window: Hashable, Sendable {
        /// The prayer.
        public let prayer: Prayer
        /// The earliest time accepted.
        public let earliest: Edge
        /// The latest time accepted.
        public let latest: Edge

        /// Creates a window.
        public init(_ prayer: Prayer, from earliest: Edge, to latest: Edge) {
            self.prayer = prayer
            self.earliest = earliest
            self.latest = latest
        }
    }

    /// The windows of the six adhan times, in the order of the day (the table above).
    public static let windows: [Window] = [
        Window(.fajr, from: Edge(.middleOfNight, -15), to: Edge(.sunrise, -30)),
        Window(.sunrise, from: Edge(.sunrise, -15), to: Edge(.sunrise, 15)),
        Window(.dhuhr, from: Edge(.dhuhr, -10), to: Edge(.dhuhr, 45)),
        Window(.asr, from: Edge(.shafiiAsr, -15), to: Edge(.hanafiAsr, 30)),
        Window(.maghrib, from: Edge(.sunset, -5), to: Edge(.sunset, 45)),
        Window(.isha, from: Edge(.sunset, 30), to: Edge(.middleOfNight, 15)),
    ]

    /// A mosque's time outside its window.
    public struct Finding: Hashable, Sendable {
        /// The mosque's day.
        public let date: CivilDate
        /// The prayer.
        public let prayer: Prayer
        /// The mosque's time.
        public let given: Date
        /// The calculated time of the prayer with the person's own method, when there is one.
        public let calculated: Date?
        /// The window's earliest instant that day.
        public let earliest: Date
        /// The window's latest instant that day.
        public let latest: Date
        /// The window.
        public let window: Window

        /// Creates a finding.
        public init(
            date: CivilDate, prayer: Prayer, given: Date, calculated: Date?, earliest: Date, latest: Date,
            window: Window
        ) {
            self.date = date
            self.prayer = prayer
            self.given = given
            self.calculated = calculated
            self.earliest = earliest
            self.latest = latest
            self.window = window
        }
    }

    /// The mosque's adhan times that fall outside their ``windows``, by day then prayer.
    /// - Parameters:
    ///   - timetable: The mosque's days, its clock times in its zone.
    ///   - calculated: The calculated days at the mosque's place and zone with the person's method,
    ///     from the day before the timetable's first (for the night before its first fajr) through its
    ///     last; days missing here are not checked.
    ///   - otherMadhab: The same days with the other asr shadow factor (2 for 1, 1 for 2), for the
    ///     asr window; when a day is missing here its asr is not checked.
    public static func findings(
        in timetable: MosqueTimetable, calculated: [PrayerSchedule], otherMadhab: [PrayerSchedule]
    ) -> [Finding] {
        guard let zone = TimeZoneName(timetable.timeZone) else { return [] }
        let own = Dictionary(calculated.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        let other = Dictionary(otherMadhab.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Finding] = []
        for day in timetable.days {
            guard let schedule = own[day.date], schedule.polarBasis == nil else { continue }
            let before = own[day.date.adding(days: -1)]
            for window in windows {
                func instant(_ edge: Edge) -> Date? {
                    reference(edge.reference, of: window.prayer, schedule, before: before, other: other[day.date])?
                        .addingTimeInterval(Double(edge.minutes * 60))
                }
                guard let minutes = day.adhan[window.prayer],
                    let given = IqamaSettings.instant(minutes, on: day.date, in: zone),
                    let earliest = instant(window.earliest), let latest = instant(window.latest),
                    given < earliest || given > latest
                else { continue }
                findings.append(
                    Finding(
                        date: day.date, prayer: window.prayer, given: given, calculated: schedule[window.prayer]?.date,
                        earliest: earliest, latest: latest, window: window))
            }
        }
        return findings
    }

    /// The instant `reference` is on `schedule`'s day for `prayer`'s window, where it exists: fajr's
    /// middle of the night is the night before it (from `before`'s sunset), isha's the night after.
    private static func reference(
        _ reference: Reference, of prayer: Prayer, _ schedule: PrayerSchedule, before: PrayerSchedule?,
        other: PrayerSchedule?
    ) -> Date? {
        switch reference {
        case .sunrise: return schedule[.sunrise]?.date
        case .sunset: return schedule[.sunset]?.date
        case .dhuhr: return schedule[.dhuhr]?.date
        case .shafiiAsr, .hanafiAsr:
            guard let asr = schedule[.asr]?.date, let otherAsr = other?[.asr]?.date else { return nil }
            return reference == .shafiiAsr ? min(asr, otherAsr) : max(asr, otherAsr)
        case .middleOfNight:
            let day = prayer == .fajr ? before : schedule
            guard let night = day?.sunsetToSunrise, day?.polarBasis == nil else { return nil }
            return night.start.addingTimeInterval(night.duration / 2)
        }
    }
}
