import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The prayer log's rows in sync and backups: a `log` row per day and prayer, keyed
// `YYYY-MM-DD/<prayer>` (SyncLogValue in PrayCore holds the value and its rules).
extension PrayerLogStoreSQLite: SyncedCollection {
    static var collections: [SyncCollection] { [.log] }

    /// A long log streams: an export reads it an entry at a time.
    static var isStreamedInBackups: Bool { true }

    /// The `log` row of an entry.
    static func syncRow(_ entry: PrayerLogEntry) -> (key: String, value: SyncValue?) {
        (SyncRules.logKey(date: entry.date, prayer: entry.prayer), .log(SyncLogValue(entry)))
    }

    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] {
        try load(connection, "", []).map { entry in
            let row = syncRow(entry)
            return SyncedRow(
                collection: .log, key: row.key, value: .log(SyncLogValue(entry)), recordedAt: entry.recordedAt)
        }
    }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        let (date, prayer) = try SyncRules.parseLogKey(key)
        let entries = try load(
            connection, "WHERE day = ? AND prayer = ?", [.integer(Int64(date.daysSince1970)), .text(prayer.rawValue)])
        return entries.first.map { .log(SyncLogValue($0)) }
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        let (date, prayer) = try SyncRules.parseLogKey(row.key)
        if let entry = row.value?.payload(as: SyncLogValue.self) {
            try upsert(
                [
                    try PrayerLogEntry(
                        date: date, prayer: prayer, status: entry.status, recordedAt: entry.recordedAt, note: entry.note
                    )
                ], connection)
        } else {
            try connection.prepare("DELETE FROM prayer_log WHERE day = ? AND prayer = ?").run([
                .integer(Int64(date.daysSince1970)), .text(prayer.rawValue),
            ])
        }
    }

    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        data.prayerLog = try load(connection, "", [])
    }

    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        let before = try load(connection, "", []).map { syncRow($0).key }
        try connection.execute("DELETE FROM prayer_log")
        try upsert(data.prayerLog, connection)
        try restore.journal.replaced(
            .log, before: before, after: data.prayerLog.map(syncRow), now: restore.now, connection)
    }
}
