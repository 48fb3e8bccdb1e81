#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A civil day's times together with the day before and the day after, so that "the current prayer"
/// just after midnight (yesterday's isha) and "the next prayer" after isha (tomorrow's fajr) have an
/// answer.
///
/// ```swift
/// let day = try await manager.day(for: request)
/// if let next = day.next(at: now) { print("\(next.prayer.name) at \(next.date)") }
/// ```
public struct PrayerDay: Hashable, Sendable {
    /// The day before ``today``.
    public let yesterday: PrayerSchedule
    /// The civil day this value is about.
    public let today: PrayerSchedule
    /// The day after ``today``.
    public let tomorrow: PrayerSchedule

    /// Creates a prayer day from three consecutive schedules.
    public init(yesterday: PrayerSchedule, today: PrayerSchedule, tomorrow: PrayerSchedule) {
        self.yesterday = yesterday
        self.today = today
        self.tomorrow = tomorrow
    }

    /// The civil day of ``today``.
    public var date: CivilDate { today.date }

    /// Returns the time whose period contains `instant`: the latest of `prayers` (over the three
    /// days) at or before it, or `nil` if none is.
    /// - Parameters:
    ///   - instant: The moment to ask about, usually "now" from an injected clock.
    ///   - prayers: The times that start a period; the five prayers and sunrise by default.
    public func current(at instant: Date, among prayers: [Prayer] = Prayer.daily) -> PrayerTime? {
        candidates(prayers).last { $0.date <= instant }
    }

    /// Returns the first of `prayers` (over the three days) strictly after `instant`, or `nil` if
    /// none is.
    /// - Parameters:
    ///   - instant: The moment to ask about, usually "now" from an injected clock.
    ///   - prayers: The times to look for; the five prayers and sunrise by default.
    public func next(at instant: Date, among prayers: [Prayer] = Prayer.daily) -> PrayerTime? {
        candidates(prayers).first { $0.date > instant }
    }

    /// Returns the next of the five prayers strictly after `instant` — never sunrise, which is a
    /// time but not a prayer — or `nil` if none is.
    public func nextPrayer(at instant: Date) -> PrayerTime? {
        next(at: instant, among: Prayer.obligatory)
    }

    private func candidates(_ prayers: [Prayer]) -> [PrayerTime] {
        [yesterday, today, tomorrow]
            .flatMap { schedule in prayers.compactMap { schedule[$0] } }
            .sorted { $0.date < $1.date }
    }
}
