/// Keeps the timetables of mosques the user imported, by name (`praykit timetable import`).
///
/// The methods are synchronous, for servers, tools and the command line, like ``PreferencesStore``.
///
/// ```swift
/// try store.replace(MosqueTimetable(name: "East London Mosque", coordinates: place, timeZone: "Europe/London",
///                                   days: try MosqueTimetableCSV.days(from: data)))
/// let kept = try store.mosques()
/// ```
public protocol MosqueTimetableStore: Sendable {
    /// Stores `timetable`, replacing every day kept for a mosque of the same name, in one transaction.
    /// - Throws: ``StorageError``.
    func replace(_ timetable: MosqueTimetable) throws

    /// The mosques kept, by name, with the days each covers.
    /// - Throws: ``StorageError``.
    func mosques() throws -> [MosqueSummary]

    /// The mosque named `name` with its days from `first` through `last`, or `nil` when no mosque has
    /// that name.
    /// - Throws: ``StorageError``.
    func timetable(named name: String, from first: CivilDate, through last: CivilDate) throws -> MosqueTimetable?

    /// Removes the mosque named `name` and its days.
    /// - Returns: Whether there was one.
    /// - Throws: ``StorageError``.
    @discardableResult
    func remove(named name: String) throws -> Bool

    /// The queue the ``async`` view runs this store's methods on: the database's, for a store over a
    /// database file; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}
