import Foundation

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
/// need nothing special.
public struct PrayerTimer: Sendable {
    /// The times that start a period, in order: the five prayers and sunrise over every day given.
    public let times: [PrayerTime]
    /// The iqama and Jumu'ah settings, if any.
    public let iqama: IqamaSettings?
    private let schedules: [PrayerSchedule]

    /// Creates a timer over `schedules` (consecutive days; the day before and after the instants
    /// asked about should be included, so that just after midnight and after isha have answers).
    public init(schedules: [PrayerSchedule], iqama: IqamaSettings? = nil) {
        self.schedules = schedules
        self.iqama = iqama
        times = schedules.flatMap { schedule in Prayer.daily.compactMap { schedule[$0] } }.sorted { $0.date < $1.date }
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
        if nextIndex > 0 { current = Window(time: times[nextIndex - 1], endsAt: next.date) }
        let currentIqama = current.flatMap { iqamaDate(of: $0.time) }.flatMap { $0 > instant ? $0 : nil }
        return Status(
            now: instant, current: current, next: next, nextIqama: iqamaDate(of: next), currentIqama: currentIqama)
    }

    /// The iqama of a time, when settings give one (on Fridays, dhuhr's is the first Jumu'ah).
    public func iqamaDate(of time: PrayerTime) -> Date? {
        guard let iqama, let schedule = schedules.first(where: { $0[time.prayer]?.date == time.date }) else {
            return nil
        }
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
