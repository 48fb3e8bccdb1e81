import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The fasts in sync and backups: a `fast` row per day, keyed `YYYY-MM-DD` (SyncFastValue in PrayCore
// holds the value and its rules).
extension FastStoreSQLite: SyncedCollection {
    static var collections: [SyncCollection] { [.fast] }

    /// The `fast` row of an entry: keyed by its day.
    static func syncRow(_ entry: FastEntry) -> (key: String, value: SyncValue?) {
        (entry.date.description, .fast(SyncFastValue(entry)))
    }

    static func rows(_ connection: SQLiteConnection) throws -> [SyncedRow] {
        try load(connection).map { entry in
            SyncedRow(
                collection: .fast, key: entry.date.description, value: .fast(SyncFastValue(entry)),
                recordedAt: entry.recordedAt)
        }
    }

    static func value(_ collection: SyncCollection, key: String, _ connection: SQLiteConnection) throws -> SyncValue? {
        let date = try CivilDate(parsing: key)
        return try load(connection, "WHERE day = ?", [.integer(Int64(date.daysSince1970))]).first.map {
            .fast(SyncFastValue($0))
        }
    }

    static func apply(_ row: SyncRow, _ connection: SQLiteConnection) throws {
        let date = try CivilDate(parsing: row.key)
        if let fast = row.value?.payload(as: SyncFastValue.self) {
            try upsert([try FastEntry(date: date, fast)], connection)
        } else {
            _ = try delete(days: [date], connection)
        }
    }

    static func export(_ connection: SQLiteConnection, into data: inout UserData) throws {
        data.fasts = try load(connection)
    }

    static func restore(_ data: UserData, _ restore: SyncedRestore, _ connection: SQLiteConnection) throws {
        guard let fasts = data.fasts else { return }
        let before = try load(connection).map(\.date.description)
        try connection.execute("DELETE FROM fast")
        try upsert(fasts, connection)
        try restore.journal.replaced(.fast, before: before, after: fasts.map(syncRow), now: restore.now, connection)
    }
}
