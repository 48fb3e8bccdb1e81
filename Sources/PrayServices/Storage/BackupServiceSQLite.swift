import Foundation
import PrayCore

/// ``BackupService`` for the SQLite database: export reads everything in one read transaction (a
/// log entry at a time when asked), import replaces everything in one write transaction.
public struct BackupServiceSQLite: BackupService {
    private let database: SQLiteDatabase
    private let log: LogManager

    /// Creates the service.
    public init(database: SQLiteDatabase, log: LogManager) {
        self.database = database
        self.log = log
    }
}

extension BackupServiceSQLite {
    /// Everything stored; empty when the database does not exist.
    /// - Throws: ``StorageError``.
    public func exportData() throws -> UserData {
        var entries: [PrayerLogEntry] = []
        let preferences = try exportData { entries.append($0) }
        return UserData(preferences: preferences, prayerLog: entries)
    }

    /// Everything stored, a log entry at a time, in one read transaction that never blocks writers:
    /// the entries go to `entry` as they are read, so memory does not grow with the log. Empty when
    /// the database does not exist.
    /// - Throws: ``StorageError``, or what `entry` throws.
    public func exportData(entries entry: (PrayerLogEntry) throws -> Void) throws -> Preferences {
        guard database.exists else { return Preferences() }
        return try database.snapshot { connection in
            let preferences = try PreferencesStoreSQLite.load(connection)
            try PrayerLogStoreSQLite.forEach(connection, "", [], entry)
            return preferences
        }
    }

    /// The database's serial queue, where ``BackupService/async`` runs.
    public var workQueue: WorkQueue { database.workQueue }

    /// Replaces everything stored with `data`, all of it or nothing, except the settings in `kept`,
    /// which keep their stored values.
    /// - Throws: ``StorageError``; `invalidData` for more than ``UserData/maximumLogEntries`` entries,
    ///   before anything is written.
    public func importData(_ data: UserData, keeping kept: Set<Preferences.Key>) throws {
        try data.checkLimits()
        try database.write { connection in
            // The kept settings' stored values, read alone: another stored setting that is no longer
            // valid must not stop the import that replaces it. A kept value that is not valid is
            // dropped.
            var preferences = data.preferences
            let select = try connection.prepare("SELECT value FROM preferences WHERE key = ?")
            for key in kept {
                try select.bind([.text(key.rawValue)])
                preferences.unset(key)
                while try select.step() {
                    if let value = select.text(0) { try? preferences.set(value, for: key) }
                }
            }
            try connection.execute("DELETE FROM preferences; DELETE FROM prayer_log")
            try PreferencesStoreSQLite.store(preferences, replacing: Preferences(), connection)
            let statement = try connection.prepare(
                "INSERT INTO prayer_log (day, prayer, status, recorded_at) VALUES (?, ?, ?, ?)"
            )
            for entry in data.prayerLog { try statement.run(PrayerLogStoreSQLite.values(entry)) }
        }
        log.notice(
            "Backup imported",
            metadata: [
                "storage.preferences": "\(data.preferences.values.count)", "storage.log": "\(data.prayerLog.count)",
            ]
        )
    }
}
