#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Suhoor's end and iftar in Ramadan: which comes next at an instant, and the countdown to it.
///
/// A fast day runs from the maghrib before it (when the Hijri day begins) to its own maghrib: until
/// suhoor ends (imsak, or fajr when the method gives no imsak) the next moment is suhoor's end, then
/// iftar at maghrib. The days are the person's Ramadan days — by their Hijri calendar and offset,
/// the same days `praykit notify` plans imsak and iftar on.
///
/// ```swift
/// let ramadan = RamadanTimer(schedules: response.schedules, ramadanDays: [day: 12])
/// if let status = ramadan.status(at: now) { print(status.moment, status.at) }   // iftar, 17:41
/// ```
public struct RamadanTimer: Sendable {
    private let days: [Day]

    /// One fast day.
    private struct Day: Sendable {
        let ramadanDay: Int
        /// When the Hijri day began: the previous day's maghrib, or the civil day's start.
        let begins: Date
        let suhoorEnds: Date
        let fajr: Date?
        let iftar: Date
    }

    /// Which moment of the fast day comes next.
    public enum Moment: String, Hashable, Sendable {
        /// The end of suhoor (imsak, or fajr): the fast begins.
        case suhoor
        /// Maghrib: the fast is broken.
        case iftar
    }

    /// What a display shows in Ramadan at an instant.
    public struct Status: Hashable, Sendable {
        /// The day of Ramadan (1…30) of the fast that comes or goes on.
        public let ramadanDay: Int
        /// The next moment: suhoor's end or iftar.
        public let moment: Moment
        /// When it is.
        public let at: Date
        /// Fajr of the fast day, when suhoor ends at imsak before it.
        public let fajr: Date?
        /// The instant asked about.
        public let now: Date

        /// Seconds until ``at``.
        public var countdown: TimeInterval { at.timeIntervalSince(now) }
    }

    /// Creates a timer over consecutive days' `schedules`, of which those in `ramadanDays` (a civil day
    /// → its day of Ramadan) are fast days. A day without maghrib or fajr (a polar day) has no fast
    /// times and is left out.
    public init(schedules: [PrayerSchedule], ramadanDays: [CivilDate: Int]) {
        var days: [Day] = []
        for (index, schedule) in schedules.enumerated() {
            guard let ramadanDay = ramadanDays[schedule.date], let maghrib = schedule[.maghrib]?.date,
                let suhoorEnds = (schedule[.imsak] ?? schedule[.fajr])?.date
            else { continue }
            let previousMaghrib = index > 0 ? schedules[index - 1][.maghrib]?.date : nil
            let begins = previousMaghrib ?? Self.start(of: schedule.date, in: schedule.timeZone)
            let fajr = schedule[.fajr]?.date
            days.append(
                Day(
                    ramadanDay: ramadanDay, begins: min(begins, suhoorEnds), suhoorEnds: suhoorEnds,
                    fajr: fajr == suhoorEnds ? nil : fajr, iftar: maghrib))
        }
        self.days = days
    }

    /// The first instant of a civil day in a zone (midnight, or the first hour a DST change leaves).
    private static func start(of date: CivilDate, in zone: TimeZone) -> Date {
        let midnightUTC = Date(timeIntervalSince1970: Double(date.daysSince1970) * 86_400)
        var candidate = midnightUTC.addingTimeInterval(-Double(zone.offset(at: midnightUTC)))
        // The offset at local midnight can differ from the one at UTC midnight across a change.
        candidate = midnightUTC.addingTimeInterval(-Double(zone.offset(at: candidate)))
        return candidate
    }

    /// One fast day: from the maghrib before it to its own maghrib (``fast(at:)``).
    public struct Fast: Hashable, Sendable {
        /// The day of Ramadan, 1…30.
        public let ramadanDay: Int
        /// When the Hijri day began: the maghrib before it (or the civil day's start).
        public let begins: Date
        /// The end of suhoor: imsak, or fajr when the method gives no imsak.
        public let suhoorEnds: Date
        /// Iftar: the day's maghrib.
        public let iftar: Date
    }

    /// The fast day `instant` falls in — from the maghrib before it until its iftar — or `nil` outside
    /// Ramadan's fast days. Unlike ``status(at:)``, both of its moments, the past one too.
    public func fast(at instant: Date) -> Fast? {
        days.first { $0.begins <= instant && instant < $0.iftar }.map {
            Fast(ramadanDay: $0.ramadanDay, begins: $0.begins, suhoorEnds: $0.suhoorEnds, iftar: $0.iftar)
        }
    }

    /// Whether any day given is a fast day.
    public var isEmpty: Bool { days.isEmpty }

    /// The next of suhoor's end and iftar at `instant`, or `nil` when `instant` is not in a fast day
    /// (before the first Ramadan night, after the last iftar, or outside Ramadan).
    public func status(at instant: Date) -> Status? {
        for day in days where day.begins <= instant && instant < day.iftar {
            let suhoor = instant < day.suhoorEnds
            return Status(
                ramadanDay: day.ramadanDay, moment: suhoor ? .suhoor : .iftar,
                at: suhoor ? day.suhoorEnds : day.iftar, fajr: suhoor ? day.fajr : nil, now: instant)
        }
        return nil
    }
}
