import Foundation
import PrayCore
import PrayServices

/// The real database in a temporary folder that only this test uses, removed when released (and at
/// the latest when the process exits: ``TemporaryFolders``).
///
/// ```swift
/// let test = try TestDatabase()
/// try test.prayerLog.record(.prayed, for: .fajr, on: .mockDate)
/// try test.reset()   // an empty database again
/// ```
public final class TestDatabase: Sendable {
    /// The temporary folder.
    public let folder: URL
    /// The database file inside it.
    public let path: String
    /// The database.
    public let database: SQLiteDatabase
    /// Preferences in it.
    public let preferences: PreferencesStoreSQLite
    /// The prayer log in it, stamped by ``clock``.
    public let prayerLog: PrayerLogStoreSQLite
    /// Export and import.
    public let backup: BackupServiceSQLite
    /// The fixed instant entries are stamped with: 2026-11-29 12:00:00.250 UTC.
    public static let clock = Date(timeIntervalSince1970: 1_795_953_600.25)

    /// Creates an empty database file in a new temporary folder.
    /// - Throws: When the folder cannot be created.
    public init(log: LogManager = .silent) throws {
        folder = try TemporaryFolders.make("praykit-test")
        path = folder.appendingPathComponent("praykit.sqlite").path
        database = SQLiteDatabase(path: path, log: log)
        preferences = PreferencesStoreSQLite(database: database, log: log)
        prayerLog = PrayerLogStoreSQLite(database: database, log: log, clock: PrayClockFake(now: TestDatabase.clock))
        backup = BackupServiceSQLite(database: database, log: log)
    }

    deinit {
        TemporaryFolders.remove(folder)
    }

    /// Closes the database and deletes its files, so the next use starts from an empty database.
    /// - Throws: When a file cannot be removed.
    public func reset() throws {
        database.close()
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
