import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``BackupService`` for the SQLite database: export reads everything in one read transaction (a
/// log entry at a time when asked), import replaces everything in one write transaction.
public struct BackupServiceSQLite: BackupService {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let clock: any PrayClock
    private let journal: SyncJournal

    /// Creates the service.
    /// - Parameters:
    ///   - database: The database.
    ///   - log: The logger.
    ///   - clock: The clock (the container's) that stamps synced changes.
    ///   - journal: Sync's journal: under sync, an import becomes puts for every row in the file and
    ///     deletes for every synced row not in it, in the import's transaction.
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

extension BackupServiceSQLite {
    /// Everything stored; empty when the database does not exist.
    /// - Throws: ``StorageError``.
    public func exportData() throws -> UserData {
        var data = Self.empty
        guard database.exists else { return data }
        try database.snapshot { connection in
            for home in SyncedCollections.all { try home.export(connection, into: &data) }
        }
        return data
    }

    /// Everything stored, in one read transaction that never blocks writers: everything but the log
    /// to `rest`, then the log entries to `entry` as they are read, so memory does not grow with the
    /// log. Empty when the database does not exist.
    /// - Throws: ``StorageError``, or what `rest` or `entry` throws.
    public func exportData(rest: (UserData) throws -> Void, entries entry: (PrayerLogEntry) throws -> Void) throws {
        guard database.exists else { return try rest(Self.empty) }
        try database.snapshot { connection in
            var data = Self.empty
            for home in SyncedCollections.all where !home.isStreamedInBackups {
                try home.export(connection, into: &data)
            }
            try rest(data)
            try PrayerLogStoreSQLite.forEach(connection, "", [], entry)
        }
    }

    /// The database's serial queue, where ``BackupService/async`` runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Replaces everything stored with `data`, all of it or nothing, except the settings in `kept`,
    /// which keep their stored values, and the mosques' timetables, the prayers to make up and the
    /// fasts when `data` has none of them (a backup made before PrayKit kept them). Under sync it is
    /// a put for every entry, synced setting, mosque month, qada entry and fast in the file and a
    /// delete for every one it lacks, in the same transaction.
    /// - Throws: ``StorageError``; `invalidData` for more than ``UserData/maximumLogEntries`` entries,
    ///   before anything is written.
    public func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) throws {
        try data.checkLimits()
        let restore = SyncedRestore(journal: journal, now: clock.now(), kept: kept)
        try database.write { connection in
            for home in SyncedCollections.all { try home.restore(data, restore, connection) }
        }
        log.notice(
            "Backup imported",
            metadata: [
                "storage.preferences": "\(data.preferences.values.count)", "storage.log": "\(data.prayerLog.count)",
            ]
        )
    }

    /// A backup of nothing.
    private static var empty: UserData {
        UserData(preferences: Preferences(), prayerLog: [], mosques: [], qada: [], fasts: [])
    }
}
