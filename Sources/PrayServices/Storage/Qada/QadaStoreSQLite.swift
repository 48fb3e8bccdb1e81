import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``QadaStore`` in the SQLite database: one `qada_entry` row per entry, keyed by its id (schema 6).
///
/// Every write is one transaction. The `static` functions (`upsert(_:_:)`, `delete(ids:_:)`,
/// `load(_:)`) work inside a transaction the caller holds, for sync's apply and for backups.
public struct QadaStoreSQLite: QadaStore {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let clock: any PrayClock
    private let journal: SyncJournal

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database; it is not created just to read.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps changes (and their sync stamps).
    ///   - journal: Sync's journal, which adds each change to the outbox in the same transaction once
    ///     sync is on (a `qada` row per entry, keyed by its id).
    public init(
        database: SQLiteDatabase, log: LogManager, clock: any PrayClock = PrayClockSystem(),
        journal: SyncJournal = SyncJournal()
    ) {
        self.database = database
        self.log = log
        self.clock = clock
        self.journal = journal
    }
}

extension QadaStoreSQLite {
    /// The database's serial queue, where the store's `async` view runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Every entry, by `recordedAt` then id.
    /// - Throws: ``StorageError``; `invalidData` for a stored row that breaks the entry's rules.
    public func entries() throws -> [QadaEntry] {
        guard database.exists else { return [] }
        return try database.read { connection in try Self.load(connection) }
    }

    /// Stores `entries`, each replacing the entry of the same id, in one transaction.
    /// - Throws: ``StorageError``.
    public func save(_ entries: [QadaEntry]) throws {
        guard !entries.isEmpty else { return }
        let stamp = clock.now()
        try database.write { [journal] connection in
            try Self.upsert(entries, connection)
            try journal.changed(.qada, entries.map(Self.syncRow), now: stamp, connection)
        }
        log.debug("Qada entries saved", metadata: ["qada.entries": "\(entries.count)"])
    }

    /// Removes the entry with `id`, returning it.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func remove(id: String) throws -> QadaEntry? {
        guard database.exists else { return nil }
        let stamp = clock.now()
        let removed = try database.write { [journal] connection in
            let entry = try Self.load(connection, "WHERE id = ?", [.text(id)]).first
            if entry != nil {
                try Self.delete(ids: [id], connection)
                try journal.changed(.qada, [(id, nil)], now: stamp, connection)
            }
            return entry
        }
        if removed != nil {
            log.debug("Qada entry removed", metadata: ["qada.kind": "\(removed?.kind.rawValue ?? "")"])
        }
        return removed
    }
}

// MARK: - In a transaction

extension QadaStoreSQLite {
    /// Writes `entries` on `connection`, each replacing the row of the same id; the caller holds the
    /// transaction.
    /// - Throws: ``StorageError``.
    static func upsert(_ entries: [QadaEntry], _ connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO qada_entry (id, kind, prayer, count, day, source, recorded_at, note) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, "
                + "prayer = excluded.prayer, count = excluded.count, day = excluded.day, source = excluded.source, "
                + "recorded_at = excluded.recorded_at, note = excluded.note")
        for entry in entries {
            try statement.run([
                .text(entry.id), .text(entry.kind.rawValue), .text(entry.prayer.rawValue),
                .integer(Int64(entry.count)), .integer(Int64(entry.date.daysSince1970)),
                entry.source.map { .text($0) } ?? .null, .integer(PrayerLogEntry.milliseconds(entry.recordedAt)),
                entry.note.map { .text($0) } ?? .null,
            ])
        }
    }

    /// Removes the rows of `ids` on `connection` (an id without a row is no error); the caller holds
    /// the transaction.
    /// - Throws: ``StorageError``.
    static func delete(ids: [String], _ connection: SQLiteConnection) throws {
        let statement = try connection.prepare("DELETE FROM qada_entry WHERE id = ?")
        for id in ids { try statement.run([.text(id)]) }
    }

    /// Every entry on `connection`, by `recordedAt` then id.
    /// - Throws: ``StorageError``; `invalidData` for a row that breaks the entry's rules.
    static func load(_ connection: SQLiteConnection) throws -> [QadaEntry] {
        try load(connection, "", [])
    }

    /// The entries of the rows matching `filter`, by `recordedAt` then id.
    static func load(_ connection: SQLiteConnection, _ filter: String, _ values: [SQLiteValue]) throws
        -> [QadaEntry]
    {
        let statement = try connection.prepare(
            "SELECT id, kind, prayer, count, day, source, recorded_at, note FROM qada_entry \(filter) "
                + "ORDER BY recorded_at, id")
        try statement.bind(values)
        var entries: [QadaEntry] = []
        while try statement.step() {
            let id = statement.text(0) ?? ""
            guard let kind = QadaEntry.Kind(rawValue: statement.text(1) ?? ""),
                let prayer = Prayer(rawValue: statement.text(2) ?? "")
            else {
                throw StorageError(
                    kind: .invalidData, message: "the qada entry '\(id)' holds an unknown kind or prayer",
                    path: connection.path)
            }
            do {
                entries.append(
                    try QadaEntry(
                        id: id, kind: kind, prayer: prayer, count: Int(statement.int64(3)),
                        date: CivilDate(daysSince1970: Int(statement.int64(4))), source: statement.text(5),
                        recordedAt: Date(timeIntervalSince1970: Double(statement.int64(6)) / 1000),
                        note: statement.text(7)))
            } catch {
                throw StorageError(
                    kind: .invalidData, message: "the qada entry '\(id)' is not valid: \(error.message)",
                    path: connection.path)
            }
        }
        return entries
    }
}
