/// A recorded fast that its day no longer allows on the person's Hijri calendar as it is now: a
/// Ramadan fast on a day that is not Ramadan's, a made-up or voluntary fast on a day of Ramadan, or
/// any fast on a day fasting is forbidden (1 Shawwal, 10–13 Dhu al-Hijjah).
///
/// ``FastCalendar/check(_:on:today:)`` never lets such a fast be recorded; it appears when the
/// calendar moves after the fast was recorded — an announced month start (`hijri set-start`,
/// a starts file, another device through sync, a backup), the offset or the calendar changed. The
/// fast is kept as recorded (the person decides what it was) and is not counted by
/// ``FastCalendar/account(of:today:years:voluntaryYear:)``, which lists it instead.
///
/// ```swift
/// let moved = try after.moved(entries, before: before)   // what an announced start moved
/// for conflict in moved { print(conflict.entry.date, conflict.problem) }
/// ```
public struct FastConflict: Hashable, Sendable {
    /// What the day no longer allows.
    public enum Problem: Hashable, Sendable {
        /// A fasted, missed or excused day that is not a day of Ramadan (nor a forbidden day).
        case notRamadan
        /// A made-up or voluntary fast on a day of Ramadan.
        case ramadan
        /// A fast on a day fasting is forbidden; the reason (``FastCalendar/forbiddenReason(_:)``),
        /// `Eid al-Fitr`.
        case forbidden(String)
    }

    /// The fast as recorded.
    public let entry: FastEntry
    /// Its day on the calendar as it is now.
    public let day: HijriDay
    /// What is wrong.
    public let problem: Problem

    /// Creates a conflict.
    public init(entry: FastEntry, day: HijriDay, problem: Problem) {
        self.entry = entry
        self.day = day
        self.problem = problem
    }
}

extension FastCalendar {
    /// What a fast with `status` on `day` breaks, or `nil` when the day allows it: the rules of
    /// ``check(_:on:today:)`` but the one of the future.
    public static func problem(of status: FastStatus, on day: HijriDay) -> FastConflict.Problem? {
        if status.isRamadan {
            guard day.hijri.month == .ramadan else {
                return forbiddenReason(day.hijri).map { .forbidden($0) } ?? .notRamadan
            }
            return nil
        }
        if day.hijri.month == .ramadan { return .ramadan }
        return forbiddenReason(day.hijri).map { .forbidden($0) }
    }

    /// The fasts of `entries` their day does not allow on this calendar, in date order.
    /// - Throws: ``HijriError``.
    public func conflicts(in entries: [FastEntry]) throws -> [FastConflict] {
        try entries.sorted { $0.date < $1.date }.compactMap { entry in
            let day = try day(entry.date)
            return Self.problem(of: entry.status, on: day).map { FastConflict(entry: entry, day: day, problem: $0) }
        }
    }

    /// The fasts of `entries` this calendar does not allow that `before` did (or did with another
    /// problem): what a change of the calendar — an announced start, the offset — moved.
    /// - Throws: ``HijriError``.
    public func moved(_ entries: [FastEntry], before: FastCalendar) throws -> [FastConflict] {
        let earlier = Dictionary(
            try before.conflicts(in: entries).map { ($0.entry.date, $0.problem) },
            uniquingKeysWith: { first, _ in first })
        return try conflicts(in: entries).filter { earlier[$0.entry.date] != $0.problem }
    }
}
