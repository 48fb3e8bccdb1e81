import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``FastStore`` in the SQLite database: one row per day (schema 7), the day as days since 1970 and the
/// status as its stable code.
public struct FastStoreSQLite: FastStore {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let clock: any PrayClock
    private let journal: SyncJournal

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps changes (and their sync stamps).
    ///   - journal: Sync's journal, which adds each change to the outbox in the same transaction once
    ///     sync is on.
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

extension FastStoreSQLite {
    /// The database's serial queue, where the store's `async` view runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Records entries in one transaction, each replacing the fast of its day.
    /// - Throws: ``StorageError``.
    public func record(_ entries: [FastEntry]) throws {
        let stamp = clock.now()
        try database.write { [journal] connection in
            try Self.upsert(entries, connection)
            try journal.changed(.fast, entries.map(Self.syncRow), now: stamp, connection)
        }
        log.debug("Fasts recorded", metadata: ["fast.entries": "\(entries.count)"])
    }

    /// The entries from `start` through `end`, by date.
    /// - Throws: ``StorageError``.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [FastEntry] {
        guard database.exists else { return [] }
        return try database.read { connection in
            try Self.load(
                connection, "WHERE day BETWEEN ? AND ?",
                [.integer(Int64(start.daysSince1970)), .integer(Int64(end.daysSince1970))])
        }
    }

    /// Removes the fast of `date`, returning it.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func delete(on date: CivilDate) throws -> FastEntry? {
        guard database.exists else { return nil }
        let stamp = clock.now()
        let removed = try database.write { [journal] connection in
            let removed = try Self.delete(days: [date], connection)
            try journal.changed(.fast, removed.map { ($0.date.description, nil) }, now: stamp, connection)
            return removed
        }
        log.debug("Fasts deleted", metadata: ["fast.entries": "\(removed.count)"])
        return removed.first
    }
}

// MARK: - In a transaction

extension FastStoreSQLite {
    /// The row of an entry: day, status code, milliseconds, note.
    static func values(_ entry: FastEntry) -> [SQLiteValue] {
        [
            .integer(Int64(entry.date.daysSince1970)), .text(entry.status.rawValue),
            .integer(PrayerLogEntry.milliseconds(entry.recordedAt)), entry.note.map { .text($0) } ?? .null,
        ]
    }

    /// Writes entries, replacing those of the same day, inside the caller's transaction.
    /// - Throws: ``StorageError``.
    static func upsert(_ entries: [FastEntry], _ connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO fast (day, status, recorded_at, note) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (day) DO UPDATE SET status = excluded.status, recorded_at = excluded.recorded_at, "
                + "note = excluded.note")
        for entry in entries { try statement.run(values(entry)) }
    }

    /// Removes the fasts of `days` inside the caller's transaction and returns those that were there.
    /// - Throws: ``StorageError``.
    static func delete(days: [CivilDate], _ connection: SQLiteConnection) throws -> [FastEntry] {
        var removed: [FastEntry] = []
        let statement = try connection.prepare("DELETE FROM fast WHERE day = ?")
        for date in days {
            let day = SQLiteValue.integer(Int64(date.daysSince1970))
            let found = try load(connection, "WHERE day = ?", [day])
            guard !found.isEmpty else { continue }
            try statement.run([day])
            removed += found
        }
        return removed
    }

    /// Reads the entries of the rows matching `filter` (all of them for `""`), by day.
    /// - Throws: ``StorageError``, `invalidData` for an unknown status code.
    static func load(_ connection: SQLiteConnection, _ filter: String = "", _ values: [SQLiteValue] = []) throws
        -> [FastEntry]
    {
        let statement = try connection.prepare("SELECT day, status, recorded_at, note FROM fast \(filter) ORDER BY day")
        try statement.bind(values)
        var entries: [FastEntry] = []
        while try statement.step() {
            let code = statement.text(1) ?? ""
            guard let status = FastStatus(rawValue: code) else {
                throw StorageError(
                    kind: .invalidData, message: "the fasts hold an unknown status '\(code)'", path: connection.path)
            }
            entries.append(
                try FastEntry(
                    date: CivilDate(daysSince1970: Int(statement.int64(0))), status: status,
                    recordedAt: Date(timeIntervalSince1970: Double(statement.int64(2)) / 1000),
                    note: statement.text(3)))
        }
        return entries
    }
}
