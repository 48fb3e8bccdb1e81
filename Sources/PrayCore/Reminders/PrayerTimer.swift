#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a prayer display shows at an instant — the current prayer and when its time ends, the next
/// prayer, the countdown, the time since the adhan, the iqama — and the instants at which such a
/// display should update. Built from consecutive days' schedules; "now" is always an input, so a
/// display or a test drives it with any clock.
///
/// ```swift
/// let timer = PrayerTimer(schedules: response.schedules, iqama: iqama)
/// if let status = timer.status(at: clock.now()) {
///     print("\(status.next.prayer.name) in \(Int(status.countdown / 60)) min")
/// }
/// ```
///
/// Windows: fajr ends at sunrise, the time after sunrise at dhuhr, dhuhr at Asr, Asr at maghrib,
/// maghrib at isha, and isha at the next fajr. Times are instants, so midnight and clock changes
/// need nothing special. Where a day lacks a time (a polar day or night without a resolution), a
/// window lasts until the next time that exists, but never across a missing sunrise or maghrib: in
/// the midnight sun, noon is not "still Asr since yesterday", it is no window at all, and
/// ``missing(from:until:)`` says which times are absent.
public struct PrayerTimer: Sendable {
    /// The times that start a period, in order: the five prayers and sunrise over every day given.
    public let times: [PrayerTime]
    /// The iqama and Jumu'ah settings, if any.
    public let iqama: IqamaSettings?
    private let schedules: [PrayerSchedule]
    /// The place of each of ``times`` in the sequence fajr, sunrise, dhuhr, Asr, maghrib, isha of
    /// day after day (day index × 6 + the time's index), to find the times missing between two.
    private let sequence: [Int]

    /// Creates a timer over `schedules` (consecutive days; the day before and after the instants
    /// asked about should be included, so that just after midnight and after isha have answers).
    public init(schedules: [PrayerSchedule], iqama: IqamaSettings? = nil) {
        self.schedules = schedules
        self.iqama = iqama
        let numbered = schedules.enumerated().flatMap { day, schedule in
            Prayer.daily.enumerated().compactMap { index, prayer in schedule[prayer].map { ($0, day * 6 + index) } }
        }.sorted { $0.0.date < $1.0.date }
        times = numbered.map(\.0)
        sequence = numbered.map(\.1)
    }

    /// The times of the schedules' days that are missing (unavailable) between two instants, in order,
    /// with the civil day each belongs to; the days a zone skipped are left out.
    public func missing(from start: Date, until end: Date) -> [(date: CivilDate, prayer: Prayer)] {
        let first = times.lastIndex { $0.date <= start }.map { sequence[$0] + 1 } ?? 0
        let last = times.firstIndex { $0.date > end }.map { sequence[$0] - 1 } ?? schedules.count * 6 - 1
        guard first <= last else { return [] }
        return (first...last).compactMap { position in
            let schedule = schedules[position / 6]
            let prayer = Prayer.daily[position % 6]
            // A day the zone skipped (Samoa, 2011-12-30) lacks nothing: it never was.
            let reason = schedule.unavailability(of: prayer)
            return reason == nil || reason == .dayNotInZone ? nil : (schedule.date, prayer)
        }
    }

    /// A time of prayer that has begun.
    public struct Window: Hashable, Sendable {
        /// The time that began it.
        public let time: PrayerTime
        /// When it ends: the next time (fajr at sunrise, isha at the next fajr), if known.
        public let endsAt: Date?
    }

    /// What a display shows at an instant.
    public struct Status: Hashable, Sendable {
        /// The instant asked about.
        public let now: Date
        /// The prayer whose time it is, or `nil` before the first time known.
        public let current: Window?
        /// The next time.
        public let next: PrayerTime
        /// The iqama of the next prayer, when set.
        public let nextIqama: Date?
        /// The iqama of the current prayer, when set and still ahead.
        public let currentIqama: Date?
        /// Seconds until ``next``.
        public var countdown: TimeInterval { next.date.timeIntervalSince(now) }
        /// Seconds since the current time began.
        public var sinceAdhan: TimeInterval? { current.map { now.timeIntervalSince($0.time.date) } }
        /// How much of the current window has passed, 0…1.
        public var progress: Double? {
            guard let current, let end = current.endsAt else { return nil }
            let length = end.timeIntervalSince(current.time.date)
            return length > 0 ? min(1, max(0, now.timeIntervalSince(current.time.date) / length)) : nil
        }
    }

    /// The status at `instant`, or `nil` when no time after it is known.
    public func status(at instant: Date) -> Status? {
        guard let nextIndex = times.firstIndex(where: { $0.date > instant }) else { return nil }
        let next = times[nextIndex]
        var current: Window?
        if nextIndex > 0 {
            // The sequence between the two times must not lack a sunrise or maghrib: the sun's rising
            // or setting is what ends a day's or a night's window.
            let skipped = (sequence[nextIndex - 1] + 1)..<max(sequence[nextIndex - 1] + 1, sequence[nextIndex])
            let broken = skipped.contains { position in
                let prayer = Prayer.daily[position % 6]
                return [Prayer.sunrise, .maghrib].contains(prayer)
                    && schedules[position / 6].unavailability(of: prayer) != .dayNotInZone
            }
            if !broken { current = Window(time: times[nextIndex - 1], endsAt: next.date) }
        }
        let currentIqama = current.flatMap { iqamaDate(of: $0.time) }.flatMap { $0 > instant ? $0 : nil }
        return Status(
            now: instant, current: current, next: next, nextIqama: iqamaDate(of: next), currentIqama: currentIqama)
    }

    /// The named stretch between the prayers at `instant` — duha, or a time prayer is disliked — when
    /// the schedules carry ``PrayerSchedule/extraTimes`` and `instant` falls in one.
    public func period(at instant: Date) -> (period: ExtraTimes.Period, interval: DateInterval)? {
        for schedule in schedules {
            if let found = schedule.extraTimes?.period(at: instant) { return found }
        }
        return nil
    }

    /// The instants in `from…until` at which a named period between the prayers begins or ends
    /// (ishraq, zawal, the transit, isfirar, sunrise and sunset), sorted.
    public func periodBoundaries(from start: Date, until end: Date) -> [Date] {
        var instants: [Date] = []
        for times in schedules.compactMap(\.extraTimes) {
            if let duha = times.duha { instants += [duha.start, duha.end] }
            for disliked in times.disliked { instants += [disliked.interval.start, disliked.interval.end] }
        }
        return Set(instants.filter { $0 > start && $0 <= end }).sorted()
    }

    /// The iqama of a time: the mosque's own when its timetable gives one
    /// (``PrayerSchedule/congregationTimes``, ``PrayerSchedule/jumuahTimes``), else the settings'
    /// (on Fridays, dhuhr's is the first Jumu'ah).
    public func iqamaDate(of time: PrayerTime) -> Date? {
        guard let schedule = schedules.first(where: { $0[time.prayer]?.date == time.date }) else { return nil }
        if schedule.mosque != nil {
            if time.prayer == .dhuhr, let jumuah = schedule.jumuahTimes.first { return jumuah }
            if let congregation = schedule.congregationTimes[time.prayer] { return congregation }
        }
        guard let iqama else { return nil }
        if time.prayer == .dhuhr, let jumuah = iqama.jumuahTimes(in: schedule).first { return jumuah }
        return iqama.iqama(of: time, in: schedule)
    }

    /// The instants in `from…until` at which a countdown display changes: every time, `reminder`
    /// seconds before each (when given), each whole minute of the countdown in the last hour before
    /// a time, and each second in the last minute. Sorted, without duplicates.
    public func timeline(from start: Date, until end: Date, reminder: TimeInterval? = nil) -> [Date] {
        var moments = Set<Date>()
        for time in times where time.date > start {
            let at = time.date
            if at <= end { moments.insert(at) }
            if let reminder, reminder > 0 { moments.insert(at.addingTimeInterval(-reminder)) }
            for minute in 1...60 { moments.insert(at.addingTimeInterval(Double(-60 * minute))) }
            for second in 1..<60 { moments.insert(at.addingTimeInterval(Double(-second))) }
            if at > end { break }
        }
        return moments.filter { $0 > start && $0 <= end }.sorted()
    }
}
