import Foundation
import PrayCore

/// ``BackupService`` for the SQLite database: export reads everything in one read transaction (a
/// log entry at a time when asked), import replaces everything in one write transaction.
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
        var entries: [PrayerLogEntry] = []
        var data = UserData(preferences: Preferences(), prayerLog: [], mosques: [], qada: [], fasts: [])
        try exportData(rest: { data = $0 }, entries: { entries.append($0) })
        data.prayerLog = entries
        return data
    }

    /// Everything stored, in one read transaction that never blocks writers: everything but the log
    /// to `rest`, then the log entries to `entry` as they are read, so memory does not grow with the
    /// log. Empty when the database does not exist.
    /// - Throws: ``StorageError``, or what `rest` or `entry` throws.
    public func exportData(rest: (UserData) throws -> Void, entries entry: (PrayerLogEntry) throws -> Void) throws {
        guard database.exists else {
            try rest(UserData(preferences: Preferences(), prayerLog: [], mosques: [], qada: [], fasts: []))
            return
        }
        try database.snapshot { connection in
            try rest(
                UserData(
                    preferences: try PreferencesStoreSQLite.load(connection), prayerLog: [],
                    mosques: try MosqueTimetableStoreSQLite.loadAll(connection),
                    qada: try QadaStoreSQLite.load(connection), fasts: try FastStoreSQLite.load(connection)))
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
        let stamp = now()
        try database.write { [journal] connection in
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
            let oldPreferences = (try? PreferencesStoreSQLite.load(connection)) ?? Preferences()
            let oldLog = try PrayerLogStoreSQLite.load(connection, "", [])
            try connection.execute("DELETE FROM preferences; DELETE FROM prayer_log")
            try PreferencesStoreSQLite.store(preferences, replacing: Preferences(), connection)
            try PrayerLogStoreSQLite.upsert(data.prayerLog, connection)
            // Under sync: a put for every entry in the file, a delete for every one it lacks.
            let inFile = Set(data.prayerLog.map { SyncRules.logKey(date: $0.date, prayer: $0.prayer) })
            try journal.logDeleted(
                oldLog.filter { !inFile.contains(SyncRules.logKey(date: $0.date, prayer: $0.prayer)) }, now: stamp,
                connection)
            try journal.logRecorded(data.prayerLog, now: stamp, connection)
            try journal.preferencesChanged(from: oldPreferences, to: preferences, all: true, now: stamp, connection)
            if let mosques = data.mosques {
                // Every month of every mosque in the file is put, every month it lacks deleted.
                let before = try MosqueTimetableStoreSQLite.syncRows(connection).map(\.key)
                try connection.execute("DELETE FROM mosque")
                for mosque in mosques {
                    try MosqueTimetableStoreSQLite.store(
                        mosque, importedAt: PrayerLogEntry.milliseconds(stamp), connection)
                }
                let after = mosques.flatMap(MosqueTimetableStoreSQLite.syncRows(of:))
                let gone = Set(before).subtracting(after.map(\.key)).sorted().map { (key: $0, value: SyncValue?.none) }
                try journal.changed(.mosque, after + gone, now: stamp, connection)
            }
            if let qada = data.qada {
                // Every entry in the file is put, every one it lacks deleted.
                let before = try QadaStoreSQLite.load(connection).map(\.id)
                try connection.execute("DELETE FROM qada_entry")
                try QadaStoreSQLite.upsert(qada, connection)
                let gone = Set(before).subtracting(qada.map(\.id)).sorted().map { (key: $0, value: SyncValue?.none) }
                try journal.changed(
                    .qada, qada.map { ($0.id, .qada(SyncQadaValue($0))) } + gone, now: stamp, connection)
            }
            if let fasts = data.fasts {
                let before = try FastStoreSQLite.load(connection).map(\.date.description)
                try connection.execute("DELETE FROM fast")
                try FastStoreSQLite.upsert(fasts, connection)
                let rows = fasts.map(FastStoreSQLite.syncRow)
                let gone = Set(before).subtracting(rows.map(\.key)).sorted().map { (key: $0, value: SyncValue?.none) }
                try journal.changed(.fast, rows + gone, now: stamp, connection)
            }
        }
        log.notice(
            "Backup imported",
            metadata: [
                "storage.preferences": "\(data.preferences.values.count)", "storage.log": "\(data.prayerLog.count)",
            ]
        )
    }
}
