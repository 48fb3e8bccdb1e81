import Foundation
import PrayCore

/// ``BackupService`` for the SQLite database: export reads everything in one transaction, import
/// replaces everything in one transaction.
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
        try database.write { connection in
            try connection.execute("DELETE FROM preferences; DELETE FROM prayer_log")
            try PreferencesStoreSQLite.store(data.preferences, replacing: Preferences(), connection)
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
