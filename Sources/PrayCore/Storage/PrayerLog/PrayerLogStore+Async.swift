// MARK: - The async view

extension PrayerLogStore {
    /// ``WorkQueue/shared``: a store that has no queue of its own runs its `async` calls there.
    public var workQueue: WorkQueue { .shared }

    /// This store's methods as `async` functions that run on ``workQueue`` while the caller is
    /// suspended — for the main actor and any code that must not wait for the database. The
    /// synchronous methods stay for servers, tools and the command line.
    public var async: AsyncPrayerLogStore { AsyncPrayerLogStore(store: self) }
}

/// The `async` counterparts of a ``PrayerLogStore``'s methods, with the same names: each runs the
/// synchronous method on the store's ``PrayerLogStore/workQueue``, off the caller's actor. Get it from
/// ``PrayerLogStore/async``.
///
/// ```swift
/// try await dependency.prayerLog().async.record(.prayed, for: .fajr, on: today)
/// let week = try await dependency.prayerLog().async.entries(from: weekStart, through: today)
/// ```
///
/// A separate type rather than `async` overloads of the store's own names, which Swift would prefer
/// in every `async` function, changing calls that exist.
public struct AsyncPrayerLogStore: Sendable {
    /// The store whose methods run.
    public let store: any PrayerLogStore

    /// Records `status` for `prayer` on `date` with an optional note, replacing an earlier status;
    /// returns once it is durably committed.
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five or a note that is too
    ///   long, ``StorageError``.
    @discardableResult
    public func record(
        _ status: PrayerStatus, for prayer: Prayer, on date: CivilDate, note: String? = nil
    ) async throws -> PrayerLogEntry {
        try await store.workQueue.run { [store] in try store.record(status, for: prayer, on: date, note: note) }
    }

    /// Records many entries in one transaction: all of them, or none.
    /// - Throws: ``StorageError``.
    public func record(_ entries: [PrayerLogEntry]) async throws {
        try await store.workQueue.run { [store] in try store.record(entries) }
    }

    /// The entries from `start` through `end`, by date then prayer.
    /// - Throws: ``StorageError``.
    public func entries(from start: CivilDate, through end: CivilDate) async throws -> [PrayerLogEntry] {
        try await store.workQueue.run { [store] in try store.entries(from: start, through: end) }
    }

    /// Removes the entries of `prayers` on `date` and returns those that were there, in one
    /// transaction.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func delete(_ prayers: [Prayer], on date: CivilDate) async throws -> [PrayerLogEntry] {
        try await store.workQueue.run { [store] in try store.delete(prayers, on: date) }
    }

    /// Streaks, counts and qada owed, as of `today`.
    /// - Throws: ``StorageError``.
    public func statistics(today: CivilDate) async throws -> PrayerLogStatistics {
        try await store.workQueue.run { [store] in try store.statistics(today: today) }
    }
}
