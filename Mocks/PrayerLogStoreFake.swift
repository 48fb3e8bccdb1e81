import Foundation
import PrayCore
import Synchronization

/// A ``PrayerLogStore`` in memory that never fails: it keeps one entry per day and prayer, stamped
/// with a fixed clock.
///
/// ```swift
/// let log = PrayerLogStoreFake()
/// … run the code …
/// #expect(log.allEntries.map(\.prayer) == [.fajr])
/// ```
public final class PrayerLogStoreFake: PrayerLogStore {
    private let stored = Mutex<[PrayerLogEntry]>([])
    private let observers = ChangeObservers()
    private let now: @Sendable () -> Date

    /// Creates an empty log.
    /// - Parameter now: The clock that stamps entries; 2026-11-29 12:00 UTC by default.
    public init(now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_953_600) }) {
        self.now = now
    }

    /// Every entry, by date and prayer.
    public var allEntries: [PrayerLogEntry] { stored.withLock { $0 } }

    /// Records or replaces the entry of `prayer` on `date`.
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five or a note that is too long.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate, note: String?) throws
        -> PrayerLogEntry
    {
        let entry = try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: now(), note: note)
        record([entry])
        return entry
    }

    /// Records or replaces entries.
    public func record(_ entries: [PrayerLogEntry]) {
        change { stored in
            for entry in entries {
                stored.removeAll { $0.date == entry.date && $0.prayer == entry.prayer }
                stored.append(entry)
            }
        }
    }

    /// The entries from `start` through `end`.
    public func entries(from start: CivilDate, through end: CivilDate) -> [PrayerLogEntry] {
        allEntries.filter { (start...end).contains($0.date) }
    }

    /// Removes the entries of `prayers` on `date`, returning those that were there.
    @discardableResult
    public func delete(_ prayers: [Prayer], on date: CivilDate) -> [PrayerLogEntry] {
        change { stored in
            let removed = stored.filter { $0.date == date && prayers.contains($0.prayer) }
            stored.removeAll { $0.date == date && prayers.contains($0.prayer) }
            return removed
        }
    }

    /// Streaks, counts and qada owed, as of `today`.
    public func statistics(today: CivilDate) -> PrayerLogStatistics {
        PrayerLogStatistics(entries: allEntries, today: today)
    }

    /// The entries in the range now, then after every change.
    public func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]> {
        observers.stream { [unowned self] in entries(from: start, through: end) }
    }

    /// Replaces every entry, as an import does.
    func replaceAll(with entries: [PrayerLogEntry]) {
        change { stored in stored = entries }
    }

    /// Changes the entries, keeps them by date and prayer, and tells the streams.
    private func change<T>(_ body: (inout [PrayerLogEntry]) -> T) -> T {
        let result = stored.withLock { stored in
            let result = body(&stored)
            stored.sort { ($0.date, $0.prayer.ordinal) < ($1.date, $1.prayer.ordinal) }
            return result
        }
        observers.changed()
        return result
    }
}
