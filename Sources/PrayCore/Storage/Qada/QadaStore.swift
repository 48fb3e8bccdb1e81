/// Keeps the prayers to make up (qada): the opening count of each prayer and the prayers made up
/// (`praykit qada`). ``QadaLedger`` turns what it keeps, with the prayer log, into what is owed.
///
/// The methods are synchronous, for servers, tools and the command line, like ``MosqueTimetableStore``.
///
/// ```swift
/// try store.save([try QadaEntry(id: QadaEntry.newMadeUpID(), kind: .madeUp, prayer: .fajr, count: 1,
///                               date: today, source: nil, recordedAt: now)])
/// let ledger = QadaLedger(entries: try store.entries(), log: logEntries, today: today, timeZone: zone)
/// ```
public protocol QadaStore: Sendable {
    /// Every entry, by ``QadaEntry/recordedAt`` then ``QadaEntry/id``.
    /// - Throws: ``StorageError``.
    func entries() throws -> [QadaEntry]

    /// Stores `entries`, each replacing the entry of the same id, in one transaction: all of them or
    /// none.
    /// - Throws: ``StorageError``.
    func save(_ entries: [QadaEntry]) throws

    /// Removes the entry with `id`.
    /// - Returns: The entry removed, or `nil` when there was none with that id.
    /// - Throws: ``StorageError``.
    @discardableResult
    func remove(id: String) throws -> QadaEntry?

    /// The queue the ``async`` view runs this store's methods on: the database's, for a store over a
    /// database file; ``WorkQueue/shared`` by default.
    var workQueue: WorkQueue { get }
}
