/// Keeps the fasts a person recorded: one status per day.
///
/// The methods are synchronous, for servers, tools and the command line, like ``PrayerLogStore``.
///
/// ```swift
/// try store.record([try FastEntry(date: day, status: .fasted, recordedAt: Date())])
/// let ramadan = try store.entries(from: first, through: last)
/// ```
public protocol FastStore: Sendable {
    /// Records entries in one transaction, each replacing the fast of its day: all of them, or none.
    /// - Throws: ``StorageError``.
    func record(_ entries: [FastEntry]) throws

    /// The entries from `start` through `end`, by date.
    /// - Throws: ``StorageError``.
    func entries(from start: CivilDate, through end: CivilDate) throws -> [FastEntry]

    /// Removes the fast of `date` and returns it, or `nil` when there was none.
    /// - Throws: ``StorageError``.
    @discardableResult
    func delete(on date: CivilDate) throws -> FastEntry?

    /// The queue the ``async`` view runs this store's methods on: the database's, for a store over a
    /// database file; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}
