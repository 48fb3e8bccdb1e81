import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``PrayerLogStore`` in the SQLite database: one row per day and prayer, all columns integers so a
/// year of the log reads in well under a millisecond.
public struct PrayerLogStoreSQLite: PrayerLogStore {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let clock: any PrayClock
    private let journal: SyncJournal

    /// Creates the store.
    /// - Parameters:
    ///   - database: The database.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps entries (and their sync stamps).
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

extension PrayerLogStoreSQLite {
    /// Records a status with an optional note, replacing an earlier one for the same day and prayer.
    /// - Throws: ``ValidationError`` for a prayer that is not one of the five or a note that is too
    ///   long, ``StorageError``.
    @discardableResult
    public func record(_ status: PrayerStatus, for prayer: Prayer, on date: CivilDate, note: String?) throws
        -> PrayerLogEntry
    {
        let entry = try PrayerLogEntry(date: date, prayer: prayer, status: status, recordedAt: clock.now(), note: note)
        try record([entry])
        return entry
    }

    /// Records many entries in one transaction, each with its sync outbox entry when sync is on.
    /// - Throws: ``StorageError``.
    public func record(_ entries: [PrayerLogEntry]) throws {
        let stamp = clock.now()
        try database.write { [journal] connection in
            try Self.upsert(entries, connection)
            try journal.changed(.log, entries.map(Self.syncRow), now: stamp, connection)
        }
        log.debug("Prayer log recorded", metadata: ["log.entries": "\(entries.count)"])
    }

    /// The entries from `start` through `end`.
    /// - Throws: ``StorageError``.
    public func entries(from start: CivilDate, through end: CivilDate) throws -> [PrayerLogEntry] {
        guard database.exists else { return [] }
        return try database.read { connection in
            try Self.load(
                connection, "WHERE day BETWEEN ? AND ?",
                [.integer(Int64(start.daysSince1970)), .integer(Int64(end.daysSince1970))]
            )
        }
    }

    /// Removes the entries of `prayers` on `date`, returning those that were there.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func delete(_ prayers: [Prayer], on date: CivilDate) throws -> [PrayerLogEntry] {
        guard database.exists, !prayers.isEmpty else { return [] }
        let names = prayers.map(\.rawValue)
        let stamp = clock.now()
        let removed = try database.write { [journal] connection in
            let day = SQLiteValue.integer(Int64(date.daysSince1970))
            let entries = try Self.load(connection, "WHERE day = ?", [day]).filter {
                names.contains($0.prayer.rawValue)
            }
            let statement = try connection.prepare("DELETE FROM prayer_log WHERE day = ? AND prayer = ?")
            for entry in entries { try statement.run([day, .text(entry.prayer.rawValue)]) }
            try journal.changed(.log, entries.map { (Self.syncRow($0).key, nil) }, now: stamp, connection)
            return entries
        }
        log.debug("Prayer log entries deleted", metadata: ["log.entries": "\(removed.count)"])
        return removed
    }

    /// Streaks, counts and qada owed, as of `today`.
    /// - Throws: ``StorageError``.
    public func statistics(today: CivilDate) throws -> PrayerLogStatistics {
        guard database.exists else { return PrayerLogStatistics(entries: [], today: today) }
        let entries = try database.read { connection in try Self.load(connection, "", []) }
        return PrayerLogStatistics(entries: entries, today: today)
    }

    /// The entries in the range now, then after every committed change; read on ``workQueue``, so
    /// that making the stream on the main actor never waits for the database.
    public func entriesSequence(from start: CivilDate, through end: CivilDate) -> AsyncStream<[PrayerLogEntry]> {
        database.observe { [self] in try entries(from: start, through: end) }
    }

    /// The database's serial queue, where ``PrayerLogStore/async`` runs.
    public var workQueue: WorkQueue { database.workQueue }
}

// MARK: - Helpers

extension PrayerLogStoreSQLite {
    /// The stored code of a prayer or status: its raw value, a name that never changes (schema 3).
    static func values(_ entry: PrayerLogEntry) -> [SQLiteValue] {
        [
            .integer(Int64(entry.date.daysSince1970)), .text(entry.prayer.rawValue), .text(entry.status.rawValue),
            .integer(PrayerLogEntry.milliseconds(entry.recordedAt)), entry.note.map { .text($0) } ?? .null,
        ]
    }

    /// Writes entries, replacing those of the same day and prayer.
    static func upsert(_ entries: [PrayerLogEntry], _ connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO prayer_log (day, prayer, status, recorded_at, note) VALUES (?, ?, ?, ?, ?) "
                + "ON CONFLICT (day, prayer) DO UPDATE SET status = excluded.status, "
                + "recorded_at = excluded.recorded_at, note = excluded.note"
        )
        for entry in entries { try statement.run(values(entry)) }
    }

    /// Reads entries, ordered by day and prayer, from rows matching `filter`.
    static func load(_ connection: SQLiteConnection, _ filter: String, _ values: [SQLiteValue]) throws
        -> [PrayerLogEntry]
    {
        var entries: [PrayerLogEntry] = []
        try forEach(connection, filter, values) { entries.append($0) }
        return entries
    }

    /// Calls `body` with each entry, ordered by day and prayer, of the rows matching `filter`, as
    /// they are read.
    static func forEach(
        _ connection: SQLiteConnection, _ filter: String, _ values: [SQLiteValue],
        _ body: (PrayerLogEntry) throws -> Void
    ) throws {
        let statement = try connection.prepare(
            "SELECT day, prayer, status, recorded_at, note FROM prayer_log \(filter) ORDER BY day, "
                + "CASE prayer WHEN 'fajr' THEN 1 WHEN 'dhuhr' THEN 2 WHEN 'asr' THEN 3 WHEN 'maghrib' THEN 4 ELSE 5 END"
        )
        try statement.bind(values)
        while try statement.step() {
            let prayerCode = statement.text(1) ?? ""
            let statusCode = statement.text(2) ?? ""
            guard let prayer = Prayer(rawValue: prayerCode), prayer.isObligatory,
                let status = PrayerStatus(rawValue: statusCode)
            else {
                throw StorageError(
                    kind: .invalidData, message: "the prayer log holds an unknown code '\(prayerCode)/\(statusCode)'",
                    path: connection.path)
            }
            try body(
                try PrayerLogEntry(
                    date: CivilDate(daysSince1970: Int(statement.int64(0))), prayer: prayer, status: status,
                    recordedAt: Date(timeIntervalSince1970: Double(statement.int64(3)) / 1000),
                    note: statement.text(4)
                )
            )
        }
    }
}
