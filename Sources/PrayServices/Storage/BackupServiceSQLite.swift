import Foundation
import PrayCore

/// ``BackupService`` for the SQLite database: export reads everything in one transaction, import
/// replaces everything in one transaction.
public struct BackupServiceSQLite: BackupService {
    private let database: SQLiteDatabase
    private let log: LogManager
    private let now: @Sendable () -> Date
    private let journal: SyncJournal

    /// Creates the service.
    /// - Parameters:
    ///   - database: The database.
    ///   - log: The logger.
    ///   - now: The clock that stamps synced changes.
    ///   - journal: Sync's journal: under sync, an import becomes puts for every row in the file and
    ///     deletes for every synced row not in it, in the import's transaction.
    public init(
        database: SQLiteDatabase, log: LogManager, now: @escaping @Sendable () -> Date = { Date() },
        journal: SyncJournal = SyncJournal()
    ) {
        self.database = database
        self.log = log
        self.now = now
        self.journal = journal
    }
}

extension BackupServiceSQLite {
    /// Everything stored; empty when the database does not exist.
    /// - Throws: ``StorageError``.
    public func exportData() throws -> UserData {
        guard database.exists else { return UserData(preferences: Preferences(), prayerLog: []) }
        return try database.write { connection in
            UserData(
                preferences: try PreferencesStoreSQLite.load(connection),
                prayerLog: try PrayerLogStoreSQLite.load(connection, "", [])
            )
        }
    }

    /// The database's serial queue, where ``BackupService/async`` runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Replaces everything stored with `data`: all of it or nothing.
    /// - Throws: ``StorageError``.
    public func importData(_ data: UserData) throws {
        let stamp = now()
        try database.write { [journal] connection in
            let oldPreferences = try PreferencesStoreSQLite.load(connection)
            let oldLog = try PrayerLogStoreSQLite.load(connection, "", [])
            try connection.execute("DELETE FROM preferences; DELETE FROM prayer_log")
            try PreferencesStoreSQLite.store(data.preferences, replacing: Preferences(), connection)
            try PrayerLogStoreSQLite.upsert(data.prayerLog, connection)
            // Under sync: a put for every entry in the file, a delete for every one it lacks.
            let kept = Set(data.prayerLog.map { SyncRules.logKey(date: $0.date, prayer: $0.prayer) })
            try journal.logDeleted(
                oldLog.filter { !kept.contains(SyncRules.logKey(date: $0.date, prayer: $0.prayer)) }, now: stamp,
                connection)
            try journal.logRecorded(data.prayerLog, now: stamp, connection)
            try journal.preferencesChanged(
                from: oldPreferences, to: data.preferences, all: true, now: stamp, connection)
        }
        log.notice(
            "Backup imported",
            metadata: [
                "storage.preferences": "\(data.preferences.values.count)", "storage.log": "\(data.prayerLog.count)",
            ]
        )
    }
}
